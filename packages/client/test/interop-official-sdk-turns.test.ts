// The turn model against agents written with the official SDK's v2 API: one that queues prompts
// (answering each at its insertion, when its work starts), one that steers a prompt sent during
// work into that work, and one that starts work of its own just as a prompt arrives.
import { createInMemoryTransportPair, streamFromTransport } from "@acp-kit/protocol/jsonrpc";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { afterEach, describe, expect, it } from "vitest";
import { connectToAgent, type ForegroundWork, type Turn } from "../src/index.js";

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

type Policy = "queue" | "steer";
type Send = (update: Record<string, unknown>) => Promise<void>;

/**
 * An SDK agent: each prompt's work streams `work-N` chunks and ends with the stop reason named in
 * the prompt text ("... stop:max_tokens"). `queue`: a prompt sent during work waits for the next
 * work and is answered when inserted. `steer`: it is inserted into the running work at once, which
 * streams one more chunk and ends with the steered prompt's stop reason.
 */
interface AgentOptions {
  agentWorkOnFirstPrompt?: boolean;
  /** Awaited before chunk `chunk` of work `work`; by default a turn of the event loop. */
  pace?: (work: number, chunk: number) => Promise<void>;
  /** Called when a prompt was steered into the running work. */
  onSteer?: () => void;
}

/** The default pause between chunks: it lets the event loop (and so the client) run. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function sdkAgent(policy: Policy, options: AgentOptions = {}) {
  let messages = 0;
  let works = 0;
  let busy: Promise<void> = Promise.resolve();
  let running = false;
  let steered: { text: string } | undefined;
  let agentWorkDone = !options.agentWorkOnFirstPrompt;
  const reasonOf = (text: string) => /stop:(\w+)/.exec(text)?.[1] ?? "end_turn";
  const textOf = (prompt: unknown) => ((prompt as { text?: string }[])[0]?.text ?? "") as string;
  const pace = options.pace ?? yieldToEventLoop;

  async function runWork(send: Send, text: string, insert: () => Promise<void>): Promise<void> {
    const work = ++works;
    running = true;
    await send({ sessionUpdate: "state_update", state: "running" });
    await insert();
    for (let i = 1; i <= 3; i++) {
      await pace(work, i);
      await send({
        sessionUpdate: "agent_message_chunk",
        messageId: `w${work}`,
        content: { type: "text", text: `${i}` },
      });
    }
    let reason = reasonOf(text);
    if (steered) {
      await send({ sessionUpdate: "agent_message_chunk", messageId: `w${work}`, content: { type: "text", text: "+" } });
      reason = reasonOf(steered.text);
      steered = undefined;
    }
    running = false;
    await send({ sessionUpdate: "state_update", state: "idle", stopReason: reason });
  }

  return acp
    .agent({ name: `sdk-${policy}` })
    .onRequest("initialize", () => ({
      protocolVersion: 2,
      info: { name: `sdk-${policy}`, version: "2.4.0" },
      capabilities: { session: {} },
    }))
    .onRequest("session/new", () => ({ sessionId: "sdk" }))
    .onRequest("session/prompt", ({ params, client }) => {
      const send: Send = (update) => client.notify("session/update", { sessionId: params.sessionId, update } as never);
      const messageId = `sdk-user-${++messages}`;
      const text = textOf(params.prompt);
      const userMessage = () => send({ sessionUpdate: "user_message", messageId, content: params.prompt });
      if (!agentWorkDone) {
        // Work of its own starts first; the prompt waits behind it.
        agentWorkDone = true;
        busy = busy.then(() => runWork(send, "stop:refusal", async () => {}));
      }
      if (policy === "steer" && running) {
        steered = { text };
        options.onSteer?.();
        return userMessage().then(() => ({ messageId }));
      }
      return new Promise<{ messageId: string }>((resolve) => {
        busy = busy.then(() =>
          runWork(send, text, async () => {
            await userMessage();
            resolve({ messageId });
          }),
        );
      });
    });
}

async function connect(policy: Policy, options: AgentOptions = {}) {
  const [clientEnd, agentEnd] = createInMemoryTransportPair();
  const connection = sdkAgent(policy, options).connect(streamFromTransport(agentEnd) as unknown as acp.Stream);
  cleanup.push(async () => connection.close?.());
  const client = await connectToAgent(clientEnd, { info: { name: "acp-kit-client", version: "0.0.0" } });
  cleanup.push(() => client.close());
  return client.newSession({ cwd: "/w" });
}

function follow(handle: Turn | ForegroundWork): {
  chunks: string[];
  firstChunk: Promise<void>;
  done: Promise<unknown>;
} {
  const chunks: string[] = [];
  let streaming!: () => void;
  const firstChunk = new Promise<void>((resolve) => (streaming = resolve));
  const iterated = (async () => {
    for await (const u of handle) {
      if (u.sessionUpdate !== "agent_message_chunk") continue;
      chunks.push((u as { messageId: string }).messageId);
      streaming();
    }
  })();
  return { chunks, firstChunk, done: Promise.all([iterated, handle.done]) };
}

describe("interop: turn model against official SDK v2 agents", () => {
  it("a queueing agent: two prompts back to back settle with their own works", async () => {
    const session = await connect("queue");
    const first = session.prompt("one stop:end_turn");
    const second = session.prompt("two stop:max_tokens");
    const a = follow(first);
    const b = follow(second);
    await Promise.all([a.done, b.done]);
    expect(await first.done).toEqual({ stopReason: "end_turn" });
    expect(await second.done).toEqual({ stopReason: "max_tokens" });
    expect(await first.accepted).toBe("sdk-user-1");
    expect(await second.accepted).toBe("sdk-user-2");
    expect(a.chunks).toEqual(["w1", "w1", "w1"]);
    expect(b.chunks).toEqual(["w2", "w2", "w2"]);
    expect(first.work?.id).not.toBe(second.work?.id);
  });

  it("a steering agent: a prompt sent during work joins it and settles with it", async () => {
    // The work holds its second chunk until the steered prompt is in.
    let steeredIn!: () => void;
    const steered = new Promise<void>((resolve) => (steeredIn = resolve));
    const session = await connect("steer", {
      pace: (work, chunk) => (work === 1 && chunk === 2 ? steered : yieldToEventLoop()),
      onSteer: () => steeredIn(),
    });
    const first = session.prompt("one stop:end_turn");
    const a = follow(first);
    // Steer once the work streams.
    await a.firstChunk;
    const second = session.prompt("also this stop:refusal");
    const b = follow(second);
    await Promise.all([a.done, b.done]);
    expect(await first.done).toEqual({ stopReason: "refusal" });
    expect(await second.done).toEqual({ stopReason: "refusal" });
    expect(first.work?.messageIds).toContain(await second.accepted);
    expect(second.work).toBe(first.work);
    expect(b.chunks.every((id) => id === "w1")).toBe(true);
  });

  it("agent-initiated work that starts as a prompt arrives is reported; the prompt settles with its own", async () => {
    const session = await connect("queue", { agentWorkOnFirstPrompt: true });
    const reported: ForegroundWork[] = [];
    const workChunks: string[][] = [];
    session.onForegroundWork((work) => {
      reported.push(work);
      const f = follow(work);
      workChunks.push(f.chunks);
    });
    const turn = session.prompt("mine stop:max_tokens");
    const t = follow(turn);
    await t.done;
    expect(await turn.done).toEqual({ stopReason: "max_tokens" });
    expect(t.chunks).toEqual(["w2", "w2", "w2"]);
    expect(reported).toHaveLength(1);
    expect(await reported[0]!.done).toEqual({ stopReason: "refusal" });
    expect(reported[0]!.startedBy).toBe("agent");
    expect(workChunks[0]).toEqual(["w1", "w1", "w1"]);
  });
});
