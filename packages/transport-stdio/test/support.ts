import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SpawnAgentOptions, SpawnedAgent } from "../src/index.js";
import { spawnAgent } from "../src/index.js";

export const packageDir = join(import.meta.dirname, "..");
export const fixturesDir = join(import.meta.dirname, "fixtures");
export const fixture = (name: string): string => join(fixturesDir, name);

/** Every agent a test spawned, shut down (hard) after each test. */
const spawned: SpawnedAgent[] = [];

export function track(agent: SpawnedAgent): SpawnedAgent {
  spawned.push(agent);
  return agent;
}

/** Spawn a plain .mjs fixture with node. */
export function spawnFixture(name: string, options: SpawnAgentOptions = {}, extraArgs: string[] = []): SpawnedAgent {
  return track(spawnAgent(process.execPath, [fixture(name), ...extraArgs], { stderr: "pipe", ...options }));
}

/** Spawn a fixture that imports the workspace packages from source (through tsx). */
export function spawnSourceFixture(name: string, options: SpawnAgentOptions = {}): SpawnedAgent {
  return track(
    spawnAgent(process.execPath, ["--import", "tsx", fixture(name)], {
      stderr: "pipe",
      cwd: packageDir,
      ...options,
      env: { ...process.env, TSX_TSCONFIG_PATH: fixture("tsconfig.json"), ...options.env },
    }),
  );
}

export async function killAllSpawned(): Promise<void> {
  await Promise.all(
    spawned.splice(0).map(async (agent) => {
      agent.kill("SIGKILL");
      await agent.exited;
      await agent.transport.close();
    }),
  );
}

/** A temporary directory removed by the returned cleanup. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "acp-kit-stdio-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function writeFile(path: string, text: string, mode?: number): void {
  writeFileSync(path, text);
  if (mode !== undefined) chmodSync(path, mode);
}

/**
 * Whether `promise` is still pending once every queued promise reaction, `process.nextTick` and
 * `setImmediate` callback (the write coalescing of the NDJSON writer) ran. I/O completions can
 * still settle it later: use it where nothing outside this process would.
 */
export async function isPending(promise: Promise<unknown>): Promise<boolean> {
  let pending = true;
  const settle = () => void (pending = false);
  promise.then(settle, settle);
  await new Promise((resolve) => setImmediate(resolve));
  return pending;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
