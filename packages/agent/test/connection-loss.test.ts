/**
 * A connection lost mid-turn (a WebSocket destroyed, a client process gone): the turn is cancelled
 * (signal aborted, pending client requests read as cancelled), nothing more is sent on the dead
 * connection, and the session history records what a client that had stayed would have seen: the
 * final status of unfinished tool calls, terminals no longer cancellable, and the `cancelled`
 * stop. A resume with replay on a new connection then shows exactly that.
 */
import { ConnectionError, createInMemoryTransportPair, type Transport } from "@acp-kit/protocol/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import {
  type AgentDefinition,
  defineAgent,
  type IdGenerator,
  InMemorySessionStore,
  type PermissionDecision,
  type Turn,
  TurnEndedError,
} from "../src/index.js";
import { type ClientOptions, gate, ScriptedClient } from "./support/harness.js";

const CWD = "/work/project";
/** A streaming handler's pause between lines: it lets the event loop (and the client) run. */
const yieldToEventLoop = () => new Promise((resolve) => setImmediate(resolve));

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Payloads the agent handed its transport, split by whether the transport had reported its end. */
interface SentLog {
  beforeEnd: string[];
  afterEnd: string[];
}

function watched(transport: Transport, log: SentLog): Transport {
  let ended = false;
  return {
    start(sink) {
      transport.start({
        message: (payload) => sink.message(payload),
        closed(error) {
          ended = true;
          sink.closed(error);
        },
      });
    },
    send(payload) {
      (ended ? log.afterEnd : log.beforeEnd).push(payload);
      return transport.send(payload);
    },
    close: () => transport.close(),
  };
}

/** Ids in creation order, so two agents running the same script produce the same history. */
function counterIds(): IdGenerator {
  let next = 0;
  return (kind) => `${kind}_${++next}`;
}

/** One agent with its own store; each `connect()` is a new connection to it. */
function agentWith(definition: Partial<AgentDefinition> & Pick<AgentDefinition, "prompt">) {
  const store = new InMemorySessionStore();
  const agent = defineAgent({
    info: { name: "t", version: "1" },
    validateOutgoing: true,
    cancelGracePeriodMs: 2000,
    ids: counterIds(),
    sessionStore: store,
    ...definition,
  });
  const connect = async (options: ClientOptions = {}) => {
    const [agentSide, clientSide] = createInMemoryTransportPair();
    const sent: SentLog = { beforeEnd: [], afterEnd: [] };
    const handle = agent.serve(watched(agentSide, sent));
    const client = new ScriptedClient(clientSide, options);
    cleanups.push(async () => {
      await client.close();
      await handle.close();
      await handle.closed;
    });
    await client.initialize();
    /** The socket dies under both ends at once (no close handshake). */
    const drop = () => clientSide.fail(ConnectionError.closed("The WebSocket was destroyed"));
    return { client, handle, sent, drop, settled: () => clientSide.settled() };
  };
  return { store, connect };
}

type Connect = ReturnType<typeof agentWith>["connect"];

/** Resumes on a new connection with replay from the start; returns every update it received. */
async function resumeWithReplay(connect: Connect, sessionId: string): Promise<any[]> {
  const { client } = await connect();
  await client.request("session/resume", { sessionId, cwd: CWD, replayFrom: { type: "start" } });
  return client.updates(sessionId);
}

const IDLE_CANCELLED = { sessionUpdate: "state_update", state: "idle", stopReason: "cancelled" };

function text(message: { content: { text: string }[] } | undefined): string {
  return (message?.content ?? []).map((block) => block.text).join("");
}

describe("connection lost mid-stream", () => {
  it("cancels the turn and records its end; nothing is sent on the dead connection; the replay shows it", async () => {
    const aborted = gate<unknown>();
    const { store, connect } = agentWith({
      prompt: async (turn) => {
        const call = turn.toolCall({ title: "Run the tests", kind: "execute" });
        await call.start();
        const terminal = turn.terminal({ command: "npm test", onCancel: () => {} });
        await call.showTerminal(terminal.id);
        const reply = turn.message();
        for (let line = 1; !turn.signal.aborted; line++) {
          await reply.append(`line ${line}\n`);
          await terminal.write(`line ${line}\n`);
          await yieldToEventLoop();
        }
        aborted.open(turn.signal.reason);
        return "end_turn"; // the engine reports `cancelled` whatever the handler says
      },
    });
    const first = await connect();
    const sessionId = await first.client.newSession(CWD);
    await first.client.prompt(sessionId, "run the tests");
    await first.client.waitUntil(
      () => first.client.updates().filter((u) => u.sessionUpdate === "agent_message_chunk").length >= 3,
    );
    first.drop();
    expect(await aborted.promise).toBeInstanceOf(DOMException);
    await first.handle.closed;
    const seen = first.client.updates(sessionId);

    expect(first.sent.afterEnd).toEqual([]);
    expect(first.handle.sessions.size).toBe(0);
    expect(store.get(sessionId)?.lastStop).toEqual({ stopReason: "cancelled" });

    const replay = await resumeWithReplay(connect, sessionId);
    expect(replay.map((u) => u.sessionUpdate)).toEqual([
      "user_message",
      "tool_call_update",
      "terminal_update",
      "agent_message",
      "state_update",
    ]);
    const [, call, terminal, message, snapshot] = replay;
    expect(call).toMatchObject({
      title: "Run the tests",
      status: "cancelled",
      content: [{ type: "terminal", terminalId: terminal.terminalId }],
    });
    // The terminal is left running (no exit status) but no longer offers cancel.
    expect(terminal.capabilities).toBeNull();
    expect(terminal.exitStatus).toBeUndefined();
    // Everything the client saw is there; the recorded history may hold a line it never received.
    const seenText = seen
      .filter((u) => u.sessionUpdate === "agent_message_chunk")
      .map((u) => u.content.text)
      .join("");
    expect(text(message).startsWith(seenText)).toBe(true);
    expect(snapshot).toEqual(IDLE_CANCELLED);
  });
});

describe("connection lost while a permission request is pending", () => {
  /** A turn that asks before editing; a prompt queued behind it never starts. */
  function script(decisions: PermissionDecision[]): AgentDefinition["prompt"] {
    return async (turn) => {
      const read = turn.toolCall({ title: "Read config", kind: "read" });
      await read.complete({ content: ["port = 80"] });
      const edit = turn.toolCall({ title: "Edit config", kind: "edit", onCancel: () => {} });
      const decision = await edit.requestPermission();
      decisions.push(decision);
      if (!decision.granted) {
        await turn.say("The config was left unchanged.");
        return "refusal";
      }
      await edit.complete();
    };
  }

  it("records what a client that cancelled at the same point would have kept, and sends nothing", async () => {
    // Reference: the user cancels at the prompt, on a connection that stays.
    const referenceDecisions: PermissionDecision[] = [];
    const reference = agentWith({ prompt: script(referenceDecisions) });
    const live = await reference.connect();
    const referenceId = await live.client.newSession(CWD);
    void live.client.prompt(referenceId, "set the port");
    const referenceQueued = live.client.prompt(referenceId, "queued").catch((error: unknown) => error);
    await live.client.waitUntil(() => live.client.wire.some((m) => m.method === "session/request_permission"));
    await live.client.cancel(referenceId);
    await live.client.waitForIdles(1);
    expect(await referenceQueued).toMatchObject({ code: -32800 });
    const liveCalls = live.client.updates().filter((u) => u.sessionUpdate === "tool_call_update");
    expect(liveCalls.at(-1)).toMatchObject({ status: "cancelled" });

    // The same turn, but the socket dies while the permission request is pending.
    const decisions: PermissionDecision[] = [];
    const { store, connect } = agentWith({ prompt: script(decisions) });
    const first = await connect();
    const sessionId = await first.client.newSession(CWD);
    void first.client.prompt(sessionId, "set the port").catch(() => {});
    void first.client.prompt(sessionId, "queued").catch(() => {});
    await first.client.waitUntil(() => first.client.wire.some((m) => m.method === "session/request_permission"));
    expect(first.client.states(sessionId).at(-1)).toMatchObject({ state: "requires_action" });
    first.drop();
    await first.handle.closed;

    // The pending request read as cancelled, and was not withdrawn on the dead connection.
    expect(decisions).toEqual([{ granted: false, outcome: "cancelled" }]);
    expect(first.sent.afterEnd).toEqual([]);
    expect(first.sent.beforeEnd.some((payload) => payload.includes("$/cancel_request"))).toBe(false);

    // The history is the reference's: the edit cancelled, the agent's last words, the queued
    // prompt never inserted; the stop is the same.
    expect(store.history(sessionId)).toEqual(reference.store.history(referenceId));
    expect(store.history(sessionId).filter((u) => u.sessionUpdate === "user_message")).toHaveLength(1);
    expect(store.get(sessionId)?.lastStop).toEqual({ stopReason: "cancelled" });
    expect(reference.store.get(referenceId)?.lastStop).toEqual({ stopReason: "cancelled" });

    const replay = await resumeWithReplay(connect, sessionId);
    expect(replay).toEqual(await resumeWithReplay(reference.connect, referenceId));
    expect(
      replay.filter((u) => u.sessionUpdate === "tool_call_update").map((u) => [u.title, u.status, u.capabilities]),
    ).toEqual([
      ["Read config", "completed", undefined],
      ["Edit config", "cancelled", null],
    ]);
    expect(replay.at(-1)).toEqual(IDLE_CANCELLED);
  });
});

describe("connection lost while idle", () => {
  it("records nothing more; the replay ends with the last turn's stop", async () => {
    const { store, connect } = agentWith({ prompt: async (turn) => void (await turn.say(`echo: ${turn.text}`)) });
    const first = await connect();
    const sessionId = await first.client.newSession(CWD);
    await first.client.prompt(sessionId, "hello");
    await first.client.waitForIdles(1);
    const before = store.history(sessionId);
    first.drop();
    await first.handle.closed;

    expect(first.sent.afterEnd).toEqual([]);
    expect(store.history(sessionId)).toEqual(before);
    expect(store.get(sessionId)?.lastStop).toEqual({ stopReason: "end_turn" });
    expect(await resumeWithReplay(connect, sessionId)).toEqual([
      ...before,
      { sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" },
    ]);
  });
});

describe("resuming while the cut-off turn is still ending", () => {
  it("waits for the turn's recorded end before replaying", async () => {
    const cleanedUp = gate();
    const { connect } = agentWith({
      prompt: async (turn) => {
        const reply = turn.message();
        await reply.append("working");
        await new Promise((resolve) => turn.signal.addEventListener("abort", resolve, { once: true }));
        await cleanedUp.promise; // cleaning up takes a while
        await reply.append(" (stopped)");
      },
    });
    const first = await connect();
    const sessionId = await first.client.newSession(CWD);
    await first.client.prompt(sessionId, "work");
    await first.client.waitUntil(() => first.client.updates().some((u) => u.sessionUpdate === "agent_message_chunk"));
    first.drop();
    // No wait for the first connection's end: the resume itself waits, here until the cleanup ends.
    const second = await connect();
    const resumed = second.client.request("session/resume", { sessionId, cwd: CWD, replayFrom: { type: "start" } });
    await second.settled();
    cleanedUp.open();
    await resumed;
    const replay = second.client.updates(sessionId);
    expect(replay.map((u) => u.sessionUpdate)).toEqual(["user_message", "agent_message", "state_update"]);
    expect(text(replay[1])).toBe("working (stopped)");
    expect(replay.at(-1)).toEqual(IDLE_CANCELLED);
    expect(first.sent.afterEnd).toEqual([]);
  });

  it("ends a handler that ignores the abort after the grace period, recording the cancelled end", async () => {
    let kept: Turn | undefined;
    const { store, connect } = agentWith({
      cancelGracePeriodMs: 30,
      prompt: async (turn) => {
        kept = turn;
        await turn.toolCall({ title: "Long job" }).start();
        await new Promise<void>(() => {}); // ignores the signal
      },
    });
    const first = await connect();
    const sessionId = await first.client.newSession(CWD);
    await first.client.prompt(sessionId, "work");
    await first.client.waitUntil(() => first.client.updates().some((u) => u.sessionUpdate === "tool_call_update"));
    first.drop();
    await first.handle.closed;

    expect(kept!.active).toBe(false);
    expect(() => kept!.message("too late")).toThrow(TurnEndedError);
    expect(store.history(sessionId).find((u) => u.sessionUpdate === "tool_call_update")).toMatchObject({
      status: "cancelled",
    });
    expect(store.get(sessionId)?.lastStop).toEqual({ stopReason: "cancelled" });
    expect(first.sent.afterEnd).toEqual([]);
  });
});
