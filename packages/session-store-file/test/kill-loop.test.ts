/**
 * Crash safety: a writer child is killed with SIGKILL at a random moment (mid-append, mid-patch,
 * mid-compaction), the directory is reopened, and every session must read back whole: each
 * message's chunks consecutive from 0, at least as many as the child reported done, and earlier
 * rounds' messages unchanged.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FileSessionStore } from "../src/index.js";

const ROUNDS = 40;
const writer = join(import.meta.dirname, "fixtures", "kill-writer.ts");
const dir = mkdtempSync(join(tmpdir(), "acp-kill-loop-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Starts the writer and kills it once it reported `afterAppends` appends (it goes on writing while
 * the signal is on its way, so the kill lands mid-append, mid-patch or mid-compaction); returns
 * its last report. Counting appends, not milliseconds, gives every round work to lose however
 * busy the machine is.
 */
async function runAndKill(round: number, afterAppends: number, durability: string, batch: string): Promise<number> {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", writer, dir, String(round), durability, batch],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  let reported = 0;
  let buffer = "";
  const reachedTarget = new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`writer exited early with ${code}`)));
    let ready = false;
    child.stdout?.on("data", (data: Buffer) => {
      buffer += data.toString("utf8");
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        if (line === "ready") ready = true;
        else if (/^\d+$/.test(line)) reported = Number(line);
      }
      if (ready && reported >= afterAppends) resolve();
    });
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await reachedTarget;
  child.kill("SIGKILL");
  await exited;
  return reported;
}

function chunksOf(store: FileSessionStore): Map<string, string[]> {
  const byMessage = new Map<string, string[]>();
  for (const update of store.history("s") as unknown as {
    messageId: string;
    content: { text: string }[];
  }[]) {
    byMessage.set(
      update.messageId,
      update.content.map((c) => c.text.slice(0, c.text.indexOf(":"))),
    );
  }
  return byMessage;
}

describe("kill -9 while appending", () => {
  it(`reopens whole after ${ROUNDS} kills at random moments`, { timeout: 240_000 }, async () => {
    const seen = new Map<string, number>();
    const durabilities = ["turn", "none", "append"];
    for (let round = 0; round < ROUNDS; round++) {
      const durability = durabilities[round % durabilities.length] as string;
      // Line-by-line writes in odd rounds, batched writes in even ones.
      const batch = round % 2 === 0 ? "batch" : "lines";
      const reported = await runAndKill(round, 10 * Math.floor(Math.random() * 60), durability, batch);
      const store = new FileSessionStore({ dir });
      try {
        const record = store.get("s");
        expect(record?.cwd).toBe("/w");
        const chunks = chunksOf(store);
        const mine = chunks.get(`m${round}`) ?? [];
        expect(mine.length).toBeGreaterThanOrEqual(reported);
        expect(mine).toEqual(mine.map((_, i) => String(i)));
        // A round killed before its first chunk left no message at all: that reads back as 0 chunks.
        for (const [id, count] of seen) expect((chunks.get(id) ?? []).length, id).toBe(count);
        seen.set(`m${round}`, mine.length);
        // The last patch read back is one the writer made in this round or an earlier one.
        expect(typeof (record?.data as { n?: unknown } | undefined)?.n).toBe("number");
      } finally {
        store.close();
      }
    }
    expect(seen.size).toBe(ROUNDS);
    const total = [...seen.values()].reduce((a, b) => a + b, 0);
    console.log(`kill -9 loop: ${ROUNDS} kills, ${total} chunks recovered, 0 sessions corrupted`);
  });
});
