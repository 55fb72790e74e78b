/**
 * nginx and HAProxy from the system, in front of local agent instances, configured with the
 * snippets of docs/remote.md (one source: the doc's blocks with this run's ports and paths put in;
 * a doc that no longer has what is substituted fails here). Each runs as a plain foreground
 * process with its config in a temporary directory, TLS with a throwaway self-signed certificate
 * (HTTP/2 by ALPN), and is stopped with the test's other processes.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, connect as tcpConnect } from "node:net";
import { join } from "node:path";
import { REPO_ROOT } from "./paths.js";
import { startProcess, type TestProcess } from "./processes.js";

export type ProxyKind = "nginx" | "haproxy";

/** Where Debian puts them; `apt-get install -y nginx haproxy` installs both. */
export const PROXY_BINARIES: Record<ProxyKind, string> = { nginx: "/usr/sbin/nginx", haproxy: "/usr/sbin/haproxy" };

/** The proxies that are not installed. */
export function missingProxies(): ProxyKind[] {
  return (Object.keys(PROXY_BINARIES) as ProxyKind[]).filter((kind) => !existsSync(PROXY_BINARIES[kind]));
}

/** The doc's block for `kind` (the fenced block of that language in docs/remote.md). */
export function proxySnippet(kind: ProxyKind): string {
  const doc = readFileSync(join(REPO_ROOT, "docs", "remote.md"), "utf8");
  const blocks = [...doc.matchAll(new RegExp(`\`\`\`${kind}\\n([\\s\\S]*?)\`\`\``, "g"))];
  if (blocks.length !== 1) throw new Error(`docs/remote.md must have exactly one \`\`\`${kind} block`);
  return blocks[0]?.[1] as string;
}

export interface ProxyPlan {
  /** The port the proxy listens on (TLS, h2 and http/1.1). */
  front: number;
  /** The two instances' ports, in the doc's order (8081, 8082). */
  instances: [number, number];
  certFile: string;
  keyFile: string;
  /** Certificate and key in one file (HAProxy). */
  pemFile: string;
}

/** The doc's snippet with this run's ports and files; throws if a placeholder is missing from it. */
export function proxyConfig(kind: ProxyKind, plan: ProxyPlan): string {
  const [a, b] = plan.instances;
  const replacements: [string, string][] =
    kind === "nginx"
      ? [
          ["127.0.0.1:8081", `127.0.0.1:${a}`],
          ["127.0.0.1:8082", `127.0.0.1:${b}`],
          ["listen 443 ssl", `listen 127.0.0.1:${plan.front} ssl`],
          ["/etc/nginx/acp.crt", plan.certFile],
          ["/etc/nginx/acp.key", plan.keyFile],
        ]
      : [
          ["127.0.0.1:8081", `127.0.0.1:${a}`],
          ["127.0.0.1:8082", `127.0.0.1:${b}`],
          ["bind :443", `bind 127.0.0.1:${plan.front}`],
          ["/etc/haproxy/acp.pem", plan.pemFile],
        ];
  let config = proxySnippet(kind);
  for (const [from, to] of replacements) {
    if (!config.includes(from)) throw new Error(`docs/remote.md's ${kind} snippet no longer contains "${from}"`);
    config = config.replaceAll(from, to);
  }
  return config;
}

/** A self-signed certificate for 127.0.0.1 in `dir` (openssl), valid for a day. */
export function throwawayCertificate(dir: string): Pick<ProxyPlan, "certFile" | "keyFile" | "pemFile"> {
  const certFile = join(dir, "acp.crt");
  const keyFile = join(dir, "acp.key");
  const pemFile = join(dir, "acp.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      keyFile,
      "-out",
      certFile,
    ],
    { stdio: "pipe" },
  );
  writeFileSync(pemFile, readFileSync(certFile, "utf8") + readFileSync(keyFile, "utf8"));
  return { certFile, keyFile, pemFile };
}

/** A loopback port that was free a moment ago. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves once `port` accepts TCP connections; rejects after `timeoutMs` or when `process` exits. */
async function accepting(port: number, process: TestProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void process.exited.then(() => {
    exited = true;
  });
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = tcpConnect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (ok) return;
    if (exited) throw new Error(`the proxy exited before listening:\n${process.stderr()}`);
    if (Date.now() > deadline) throw new Error(`the proxy did not listen on ${port} in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Starts `kind` in the foreground with the doc's snippet in `dir`; resolves once it listens. */
export async function startProxy(kind: ProxyKind, dir: string, plan: ProxyPlan): Promise<TestProcess> {
  const snippet = proxyConfig(kind, plan);
  const file = join(dir, `${kind}.conf`);
  let proxy: TestProcess;
  if (kind === "nginx") {
    // The doc's block goes inside `http { }`; the rest keeps nginx to the temporary directory.
    const temp = join(dir, "nginx-temp");
    mkdirSync(temp, { recursive: true });
    // Workers run as an unprivileged user when started as root: they must reach their temp files.
    chmodSync(dir, 0o755);
    chmodSync(temp, 0o777);
    writeFileSync(
      file,
      [
        "worker_processes 1;",
        `pid ${join(dir, "nginx.pid")};`,
        "error_log stderr notice;",
        "events { worker_connections 256; }",
        "http {",
        "  access_log off;",
        ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `  ${t}_temp_path ${join(temp, t)};`),
        snippet,
        "}",
        "",
      ].join("\n"),
    );
    proxy = startProcess(PROXY_BINARIES.nginx, ["-p", dir, "-c", file, "-g", "daemon off;"]);
  } else {
    writeFileSync(file, snippet);
    // -db: foreground, no daemon; -W off by default.
    proxy = startProcess(PROXY_BINARIES.haproxy, ["-db", "-f", file]);
  }
  await accepting(plan.front, proxy, 15_000);
  return proxy;
}
