// Benchmark agent process without any library: the floor on these pipes. It answers the same
// prompt turn with the same bytes as the other agents, `JSON.stringify` per message.
//   BENCH_RAW_WRITES=64k   lines joined into ~64 KiB writes, never yielding unless the pipe is full
//   BENCH_RAW_WRITES=line  one write per line (what a hand-written agent usually does)
import { createInterface } from "node:readline";
import { chunksAsked, chunkText, reportPeakRss } from "./workload.js";

const batched = process.env.BENCH_RAW_WRITES !== "line";
const BATCH_BYTES = 64 * 1024;
let batch = "";
let nextId = 0;

const waitDrain = (): Promise<void> => new Promise((resolve) => process.stdout.once("drain", resolve));

async function send(message: unknown): Promise<void> {
  const line = `${JSON.stringify(message)}\n`;
  if (!batched) {
    if (!process.stdout.write(line)) await waitDrain();
    return;
  }
  batch += line;
  if (batch.length >= BATCH_BYTES) await flush();
}

async function flush(): Promise<void> {
  if (batch === "") return;
  const ok = process.stdout.write(batch);
  batch = "";
  if (!ok) await waitDrain();
}

const update = (sessionId: string, update: unknown) =>
  send({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update } });

async function prompt(id: unknown, params: { sessionId: string; prompt: { type: string; text?: string }[] }) {
  const count = chunksAsked(params.prompt.map((b) => b.text ?? "").join(""));
  const messageId = `u${nextId++}`;
  await update(params.sessionId, { sessionUpdate: "state_update", state: "running" });
  await update(params.sessionId, { sessionUpdate: "user_message", messageId, content: params.prompt });
  await send({ jsonrpc: "2.0", id, result: { messageId } });
  const replyId = `a${nextId++}`;
  for (let i = 0; i < count; i++) {
    await update(params.sessionId, {
      sessionUpdate: "agent_message_chunk",
      messageId: replyId,
      content: { type: "text", text: chunkText(i) },
    });
  }
  reportPeakRss();
  await update(params.sessionId, { sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
  await flush();
}

createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY }).on("line", async (line) => {
  const request = JSON.parse(line) as { id?: unknown; method: string; params: never };
  if (request.id === undefined) return;
  if (request.method === "initialize") {
    await send({
      jsonrpc: "2.0",
      id: request.id,
      result: { protocolVersion: 2, info: { name: "raw", version: "0" }, capabilities: { session: {} } },
    });
  } else if (request.method === "session/new") {
    await send({ jsonrpc: "2.0", id: request.id, result: { sessionId: `s${nextId++}` } });
  } else if (request.method === "session/prompt") {
    await prompt(request.id, request.params);
  } else {
    await send({ jsonrpc: "2.0", id: request.id, error: { code: -32601, message: "Method not found" } });
  }
  await flush();
});
