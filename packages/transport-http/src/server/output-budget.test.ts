// The server-wide output budget: while the connections' unread output is over it, each agent
// waits past its share instead of its connection's high-water mark; a client that reads frees
// the others.

import { describe, expect, it } from "vitest";
import { HttpConnection } from "./http-connection.js";
import { resolveLimits } from "./options.js";
import { OutputBudget } from "./output-budget.js";
import { ReplayBudget } from "./replay-budget.js";
import { sseBody } from "./web-body.js";

const sink = { message: () => {}, closed: () => {} };
const update = (n: number) =>
  JSON.stringify({
    jsonrpc: "2.0",
    method: "session/update",
    params: { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", n, pad: "x".repeat(150) } },
  });

function connections(count: number, totalHighWaterMark: number) {
  const limits = resolveLimits({ onConnection: () => {}, totalHighWaterMark, highWaterMark: 1 << 20 });
  const budgets = { output: new OutputBudget(totalHighWaterMark), replay: new ReplayBudget(1 << 20) };
  return {
    budgets,
    list: Array.from({ length: count }, (_, i) => {
      const connection = new HttpConnection(`c${i}`, limits, undefined, budgets);
      connection.start(sink);
      return connection;
    }),
  };
}

/** The client reads `connection`'s session stream until its agent may go on (`sent` resolved). */
async function readUntilSent(connection: HttpConnection, sent: Promise<void>): Promise<void> {
  const attached = connection.attach("s", undefined);
  if (attached === "too-many-streams" || !attached.ok) throw new Error("not attached");
  const reader = sseBody(attached.receiver).getReader();
  let done = false;
  void sent.then(() => (done = true));
  while (!done) await Promise.race([reader.read(), sent]);
  reader.releaseLock();
}

describe("output budget", () => {
  it("under the budget each connection runs to its own high-water mark", () => {
    const { list } = connections(2, 64 * 1024);
    for (let n = 0; n < 100; n++) for (const connection of list) expect(connection.send(update(n))).toBeUndefined();
    for (const connection of list) void connection.close();
  });

  it("over it, an agent waits past its share; one whose client never reads holds only itself", async () => {
    const { budgets, list } = connections(4, 4096);
    // Each sends until its agent is asked to wait: near the budget, not at 4 × 1 MiB. (Those that
    // came first took larger shares; reading brings each down to its share.)
    const waits: Promise<void>[] = [];
    for (const connection of list) {
      for (let n = 0; ; n++) {
        const sent = connection.send(update(n));
        if (sent) {
          waits.push(sent);
          break;
        }
      }
    }
    expect(budgets.output.totalBytes).toBeLessThan(3 * 4096);
    const released = new Set<number>();
    for (const [i, wait] of waits.entries()) void wait.then(() => released.add(i));
    await Promise.resolve();
    expect(released.size).toBe(0);
    // The first client never reads (and holds more than the whole budget); the others read.
    for (const i of [1, 2, 3]) await readUntilSent(list[i] as HttpConnection, waits[i] as Promise<void>);
    expect([...released].sort()).toEqual([1, 2, 3]);
    // Its agent waits until its own client reads.
    await readUntilSent(list[0] as HttpConnection, waits[0] as Promise<void>);
    expect(released.size).toBe(4);
    // Ended connections leave the budget.
    for (const connection of list) connection.terminate();
    expect(budgets.output.totalBytes).toBe(0);
  });
});
