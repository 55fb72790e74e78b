/**
 * Crash safety, the write-ahead rule (the loop: `support/kill-loop.ts`): an agent child with its
 * sessions in a FileSessionStore is killed with SIGKILL after a random number of streamed history
 * updates (mid-turn, at a turn's end, mid-compaction), round after round, under each durability.
 * Reopened, the directory must hold every update this process received, in order (at most more:
 * lines written that never reached the wire), earlier rounds' sessions unchanged, and nothing
 * unreadable.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FileSessionStore } from "../src/index.js";
import { runKillLoop } from "./support/kill-loop.js";

const ROUNDS = 40;
const DURABILITIES = ["turn", "none", "append"];
const agentFile = join(import.meta.dirname, "fixtures", "streaming-agent.ts");
const dir = mkdtempSync(join(tmpdir(), "acp-kill-loop-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("kill -9 while streaming to a client", () => {
  it(`the log holds every update the client received, after ${ROUNDS} kills`, { timeout: 600_000 }, async () => {
    const { received, ahead } = await runKillLoop({
      rounds: ROUNDS,
      agent: (round) => ({ file: agentFile, args: [dir, DURABILITIES[round % DURABILITIES.length] as string] }),
      open: () => {
        const problems: unknown[] = [];
        const logger = {
          warn: (...args: unknown[]) => problems.push(args),
          error: (...args: unknown[]) => problems.push(args),
        };
        const store = new FileSessionStore({ dir, logger });
        return {
          store,
          close: () => store.close(),
          verify: () => expect(problems, "unreadable lines or sessions").toEqual([]),
        };
      },
    });
    console.log(
      `kill -9 loop: ${ROUNDS} kills, ${received} updates received over the wire, all in the reopened logs` +
        ` (${ahead} rounds' logs also held updates not yet received), 0 sessions corrupted`,
    );
  });
});
