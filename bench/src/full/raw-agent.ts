// The library-free agent's side of the protocol, whatever carries it (the raw floor of the stdio
// and WebSocket cases): the same answers and the same prompt turn, so both floors carry the same
// bytes. `send` hands over one message (its promise: wait before sending more).
import { chunksAsked, chunkText } from "./workload.js";

export interface RawRequest {
  id?: unknown;
  method: string;
  params: never;
}

type Send = (message: unknown) => Promise<void>;

/** Session and message ids of the process, across all its connections. */
let nextId = 0;

async function prompt(
  send: Send,
  id: unknown,
  params: { sessionId: string; prompt: { type: string; text?: string }[] },
  afterChunks: () => void,
): Promise<void> {
  const update = (u: unknown) =>
    send({ jsonrpc: "2.0", method: "session/update", params: { sessionId: params.sessionId, update: u } });
  const count = chunksAsked(params.prompt.map((b) => b.text ?? "").join(""));
  const messageId = `u${nextId++}`;
  await update({ sessionUpdate: "state_update", state: "running" });
  await update({ sessionUpdate: "user_message", messageId, content: params.prompt });
  await send({ jsonrpc: "2.0", id, result: { messageId } });
  const replyId = `a${nextId++}`;
  for (let i = 0; i < count; i++) {
    await update({
      sessionUpdate: "agent_message_chunk",
      messageId: replyId,
      content: { type: "text", text: chunkText(i) },
    });
  }
  afterChunks();
  await update({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
}

/** Answers one request (notifications are ignored); `afterChunks` runs when a turn's chunks are sent. */
export async function answerRaw(send: Send, request: RawRequest, afterChunks: () => void = () => {}): Promise<void> {
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
    await prompt(send, request.id, request.params, afterChunks);
  } else {
    await send({ jsonrpc: "2.0", id: request.id, error: { code: -32601, message: "Method not found" } });
  }
}
