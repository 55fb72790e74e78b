/**
 * A fleet behind a real proxy, over Streamable HTTP: two BUILT sample-agent instances (`--http`)
 * on one PostgreSQL database, behind nginx and behind HAProxy from Debian, each configured with
 * docs/remote.md's snippet (HTTP/2 with TLS in front, cookie affinity). The instance running a turn
 * is killed (SIGKILL) mid-turn: `connectRecoverable` opens a fresh connection through the proxy,
 * lands on the other instance and resumes the session with replay. The store it recovered holds
 * everything the client had seen, equals what a client that was never interrupted reads from the
 * database (a resume with replay on its own connection), and stays equal after a further turn.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type ClientSession,
  ConnectionError,
  connectRecoverable,
  connectToAgent,
  type SessionRecovery,
  type SessionSnapshot,
} from "@acp-kit/client";
import { connectHttp, type HttpClientTransport } from "@acp-kit/transport-http";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  assertBuilt,
  createH2Fetch,
  createTestSchema,
  freePort,
  type HttpAgent,
  missingProxies,
  normalizeSnapshot,
  type ProxyKind,
  proxyConfig,
  servedConnection,
  startProxy,
  startSampleHttpAgent,
  stopAllProcesses,
  type TestSchema,
  throwawayCertificate,
} from "../src/index.js";

beforeAll(() => assertBuilt());
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => {});
  await stopAllProcesses();
});

const INFO = { name: "e2e-http-fleet", version: "0" };
const CWD = "/work/project";
const PG_URL = process.env.ACP_KIT_PG_URL;
const IN_CI = process.env.CI === "true" || process.env.CI === "1";
const missing = missingProxies();
const skip = ((PG_URL === undefined || PG_URL === "") && !IN_CI) || (missing.length > 0 && !IN_CI);
if (skip)
  process.stderr.write(
    `\n!!! the HTTP fleet e2e test is SKIPPED: ${[
      ...(PG_URL === undefined || PG_URL === ""
        ? ["ACP_KIT_PG_URL is not set (install PostgreSQL: apt-get install postgresql; npm test starts a cluster)"]
        : []),
      ...(missing.length > 0 ? [`${missing.join(" and ")} not installed (apt-get install -y nginx haproxy)`] : []),
    ].join("; ")}.\n\n`,
  );

/** The timeline's messages by id (raw ids), with their text. */
function messages(snapshot: SessionSnapshot): Map<string, string> {
  const texts = new Map<string, string>();
  for (const entry of snapshot.timeline) {
    if (entry.type !== "message") continue;
    const text = entry.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    texts.set(entry.messageId, text);
  }
  return texts;
}

describe("docs/remote.md's proxy snippets", () => {
  it("are the configurations the fleet test runs: each has what the test substitutes", () => {
    const plan = {
      front: 4443,
      instances: [9101, 9102] as [number, number],
      certFile: "/c",
      keyFile: "/k",
      pemFile: "/p",
    };
    const nginx = proxyConfig("nginx", plan);
    expect(nginx).toContain("listen 127.0.0.1:4443 ssl http2;");
    expect(nginx).toContain("server 127.0.0.1:9101; server 127.0.0.1:9102 backup;");
    expect(nginx).not.toMatch(/808[12]|\/etc\//);
    const haproxy = proxyConfig("haproxy", plan);
    expect(haproxy).toContain("bind 127.0.0.1:4443 ssl crt /p alpn h2,http/1.1");
    expect(haproxy).toContain("server a 127.0.0.1:9101 cookie a");
    expect(haproxy).not.toMatch(/808[12]|\/etc\//);
  });
});

describe.skipIf(skip)("HTTP fleet: two instances on one database behind a real proxy", () => {
  let schema: TestSchema;
  let url: string;

  beforeAll(async () => {
    if (missing.length > 0)
      throw new Error(`CI=true but ${missing.join(" and ")} is not installed: .ci/run installs nginx and haproxy`);
    schema = await createTestSchema(PG_URL, "acp_http_fleet");
    url = schema.url;
  });
  afterAll(async () => {
    await schema?.drop();
  });

  /** A client that was never interrupted: its own connection straight to `agent`, resume with replay. */
  async function uninterrupted(agent: HttpAgent, sessionId: string): Promise<unknown> {
    const client = await connectToAgent(await connectHttp(agent.url), { info: INFO });
    try {
      const session = await client.resumeSession(sessionId, { cwd: CWD, replay: true });
      return normalizeSnapshot(session.store.getSnapshot());
    } finally {
      await client.close();
    }
  }

  const kinds: ProxyKind[] = ["nginx", "haproxy"];
  for (const kind of kinds) {
    it(`${kind}: the instance running the turn is killed; the client resumes on the other through the proxy`, async () => {
      const dir = mkdtempSync(join(tmpdir(), `acp-e2e-${kind}-`));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      const certificate = throwawayCertificate(dir);
      // Paced, so the turn is still streaming when its instance dies.
      const args = ["--mode", "auto", "--postgres", url, "--pace", "25", "--verbose"];
      const instances = [await startSampleHttpAgent(args), await startSampleHttpAgent(args)] as const;
      const front = await freePort();
      await startProxy(kind, dir, { front, instances: [instances[0].port, instances[1].port], ...certificate });

      const h2 = createH2Fetch({ ca: readFileSync(certificate.certFile, "utf8") });
      cleanups.push(() => h2.close());
      const transports: HttpClientTransport[] = [];
      const recoveries: SessionRecovery[] = [];
      const acp = await connectRecoverable({
        info: INFO,
        connect: async () => {
          const transport = await connectHttp(`https://127.0.0.1:${front}/acp`, {
            fetch: h2.fetch,
            reconnect: { initialMs: 50, maxMs: 500 },
          });
          transports.push(transport);
          return transport;
        },
        reconnect: { backoff: { initialMs: 100, maxMs: 1_000 }, budgetMs: 30_000 },
        onRecovery: (event) => recoveries.push(event),
      });
      cleanups.push(() => acp.close());

      const session = await acp.newSession({ cwd: CWD });
      const holder = instances.find((agent) => servedConnection(agent, transports[0]?.connectionId));
      const other = instances.find((agent) => agent !== holder);
      if (holder === undefined || other === undefined) throw new Error("no instance logged the first connection");

      // Mid-turn: the reply has started streaming when the holder is killed.
      const turn = session.prompt("Make the greeting mention ACP");
      const outcome = turn.done.then(
        () => undefined,
        (error: unknown) => error,
      );
      await vi.waitFor(() => expect(session.store.getSnapshot().messages.agent.size).toBeGreaterThan(0), {
        timeout: 30_000,
        interval: 5,
      });
      holder.process.child.kill("SIGKILL");
      await holder.process.exited;
      const seen = messages(session.store.getSnapshot());

      expect(await outcome).toBeInstanceOf(ConnectionError);
      await vi.waitFor(() => expect(recoveries).toHaveLength(1), { timeout: 45_000, interval: 20 });
      await acp.idle();
      const recovered: ClientSession = acp.session(session.sessionId) as ClientSession;
      expect(recoveries).toEqual([{ sessionId: session.sessionId, reason: "connection_lost", session: recovered }]);
      // Through the proxy, on the other instance, with the store the application always had.
      expect(servedConnection(other, transports.at(-1)?.connectionId)).toBe(true);
      expect(recovered.store).toBe(session.store);

      // Nothing the client saw before the kill is lost (write-ahead: it was stored first), and the
      // store is what a client that never lost its connection reads.
      const after = messages(recovered.store.getSnapshot());
      for (const [id, text] of seen) expect(after.get(id)?.startsWith(text), `message ${id}`).toBe(true);
      expect(await uninterrupted(other, session.sessionId)).toEqual(normalizeSnapshot(recovered.store.getSnapshot()));

      // A further turn on the recovered session, and again the same store as such a client's.
      expect((await recovered.prompt("Thanks").done).stopReason).toBe("end_turn");
      const final = normalizeSnapshot(recovered.store.getSnapshot());
      await acp.close();
      expect(await uninterrupted(other, session.sessionId)).toEqual(final);
      // HTTP/2 all the way to the proxy.
      expect(h2.protocols.length).toBeGreaterThan(0);
      expect(new Set(h2.protocols)).toEqual(new Set(["h2"]));
    }, 120_000);
  }
});
