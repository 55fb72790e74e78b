/**
 * Memory under floods, each measured in its own child process (fixtures/floods/*.mjs) against
 * the built packages, so the numbers are not those of the test runner. Bounds are generous
 * (a shared 2-core CI machine) but far below what the unbounded code reached (docs/reliability.md).
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, E2E_ROOT } from "../../src/index.js";
import { size } from "./scale.js";

beforeAll(() => assertBuilt());

interface FloodResult extends Record<string, unknown> {
  flood: string;
}

/** Runs one flood script; its stderr is never read (it stays a full pipe), its stdout is the result. */
function flood(
  script: string,
  args: (string | number)[],
  options: { readStderr?: boolean } = {},
): Promise<FloodResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--expose-gc", join(E2E_ROOT, "fixtures", "floods", script), ...args.map(String)],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    if (options.readStderr) child.stderr.resume();
    else child.stderr.pause();
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (out += text));
    const timer = setTimeout(() => child.kill("SIGKILL"), 110_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      const line = out.trim().split("\n").at(-1) ?? "";
      try {
        const result = JSON.parse(line) as FloodResult;
        process.stdout.write(`[reliability] ${JSON.stringify(result)}\n`);
        resolve(result);
      } catch {
        reject(new Error(`${script} exited with ${code} without a result: ${out}`));
      }
    });
  });
}

describe("memory under floods (child processes)", { timeout: 120_000 }, () => {
  it("1. one batch line of 100,000 session/new: refused whole, memory flat, nothing held after close", async () => {
    const result = await flood("batch-sessions.mjs", [100_000]);
    expect(result).toMatchObject({ answered: 100_000, errors: 1 });
    expect(result.peakMiB).toBeLessThan(250);
    expect(result.heapAfterCloseMiB).toBeLessThan(30);
  });

  it("1. the same sessions in batch lines of 1,000: sessions per connection bound them", async () => {
    const result = await flood("batch-sessions.mjs", [100_000, 1000]);
    expect(result).toMatchObject({ answered: 100_000, errors: 100_000 - 256 });
    expect(result.peakMiB).toBeLessThan(300);
    expect(result.heapAfterCloseMiB).toBeLessThan(30);
  });

  it("2. WebSocket peers that do not read, sending 1 MiB method names: the agent stays bounded", async () => {
    const result = await flood("ws-slow-readers.mjs", [size(10, 25), size(32, 64)], { readStderr: true });
    expect(result.agentPeakMiB).toBeLessThan(400);
  });

  it("3. an agent flooding stderr with spawnAgent's default inherit: client memory bounded", async () => {
    const result = await flood("stderr-inherit.mjs", [size(200, 600)]);
    expect(result.exit).toEqual({ code: 0, signal: null });
    expect(result.peakMiB).toBeLessThan(200);
  });

  it("5. 300,000 updates for unknown sessions while session/new is pending: buffer bounded", async () => {
    const result = await flood("early-updates.mjs", [300_000]);
    expect((result.heapWhilePendingMiB as number) - (result.heapBaselineMiB as number)).toBeLessThan(15);
  });

  it("7. invalid lines into the sample agent with its stderr unread: bounded, and alive with a 48 MiB heap", async () => {
    const count = size(300_000, 1_000_000);
    const plain = await flood("invalid-lines.mjs", [count]);
    expect(plain).toMatchObject({ survived: true, answers: count + 1 });
    expect(plain.agentPeakMiB).toBeLessThan(200);
    const small = await flood("invalid-lines.mjs", [count, 48]);
    expect(small).toMatchObject({ survived: true, answers: count + 1 });
  });

  it("8. 10,000 sessions created and deleted: the client keeps none of them", async () => {
    const result = await flood("deletes.mjs", [size(3000, 10_000)]);
    expect(result.stillKnown).toBe(0);
    expect((result.heapAfterMiB as number) - (result.heapBaselineMiB as number)).toBeLessThan(10);
  });
});
