/**
 * A PostgreSQL server of the test's own, to stop and start (`pg_ctl stop -m immediate`) without
 * disturbing the shared one: a fresh cluster from the Debian package's binaries, in a temporary
 * directory, on a free loopback port. As root, the server runs as the package's `postgres` user.
 */
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const BIN_ROOT = "/usr/lib/postgresql";

/** The newest installed server's bin directory, if any. */
export function postgresBin(): string | undefined {
  if (!existsSync(BIN_ROOT)) return undefined;
  const versions = readdirSync(BIN_ROOT)
    .filter((v) => existsSync(join(BIN_ROOT, v, "bin", "pg_ctl")))
    .sort((a, b) => Number(a) - Number(b));
  const newest = versions.at(-1);
  return newest === undefined ? undefined : join(BIN_ROOT, newest, "bin");
}

export interface OwnCluster {
  url: string;
  stop(): void;
  start(): void;
  remove(): void;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
    });
  });
}

export async function ownCluster(bin: string): Promise<OwnCluster> {
  const dir = mkdtempSync(join(tmpdir(), "acp-kit-own-pg-"));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, Number(execFileSync("id", ["-u", "postgres"]).toString().trim()), 0);
  const run = (command: string, args: string[]): void => {
    const [file, argv] = asRoot
      ? ["runuser", ["-u", "postgres", "--", join(bin, command), ...args]]
      : [join(bin, command), args];
    execFileSync(file as string, argv as string[], { stdio: "pipe", timeout: 60_000 });
  };
  const data = join(dir, "data");
  run("initdb", ["-D", data, "-U", "acp", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  const start = (): void =>
    run("pg_ctl", [
      "-D",
      data,
      "-l",
      join(dir, "server.log"),
      "-w",
      "-t",
      "30",
      "-o",
      `-k ${dir} -p ${port} -c listen_addresses=127.0.0.1 -c fsync=off`,
      "start",
    ]);
  start();
  return {
    url: `postgres://acp@127.0.0.1:${port}/postgres`,
    start,
    stop: () => run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]),
    remove() {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
