// The automatic fallback to session/resume with replay (connectRecoverable over connectHttp):
// a session stream reopened past the server's replay window (during a turn, with the turn's end
// inside the gap, while idle) is resumed on the same connection; a connection that is gone (its
// server died mid-turn; the next one answers 404 for the connection id) is replaced by a fresh one
// and every session is resumed. Each run's store equals an uninterrupted run's.
import { createServer, type Socket, connect as tcpConnect } from "node:net";
import { type AgentSession, defineAgent, type Turn } from "@acp-kit/agent";
import {
  type ClientSession,
  type ConnectionError,
  connectRecoverable,
  type SessionRecovery,
  type SessionSnapshot,
} from "@acp-kit/client";
import { describe, expect, it, vi } from "vitest";
import { allowOnce } from "../../client/test/support/allow-once.js";
import { connectHttp } from "../src/index.js";
import { type AcpHttpServer, createAcpHttpServer } from "../src/node/index.js";
import { onCleanup } from "./support.js";

/**
 * Forwards to `target`. `hold()` parks new connections until `release()`; `cutStreams()` destroys
 * every connection that carried a GET; `cutAll()` every connection.
 */
async function startProxy(target: number) {
  const sockets = new Set<Socket>();
  const streams = new Set<Socket>();
  let held: (() => void)[] | undefined;
  const server = createServer((client) => {
    sockets.add(client);
    client.pause();
    const pipe = () => {
      const upstream = tcpConnect(proxy.target, "127.0.0.1");
      client.on("data", (chunk: Buffer) => {
        if (chunk.subarray(0, 4).toString() === "GET ") streams.add(client);
      });
      client.pipe(upstream).pipe(client);
      client.resume();
      const drop = () => {
        sockets.delete(client);
        streams.delete(client);
        client.destroy();
        upstream.destroy();
      };
      client.on("error", drop).on("close", drop);
      upstream.on("error", drop).on("close", drop);
    };
    if (held) held.push(pipe);
    else pipe();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onCleanup(
    () =>
      new Promise((resolve) => {
        server.close(resolve);
        proxy.cutAll(); // kept-alive sockets would hold the close
      }),
  );
  const proxy = {
    target,
    port: (server.address() as { port: number }).port,
    hold() {
      held = [];
    },
    release() {
      const parked = held ?? [];
      held = undefined;
      for (const pipe of parked) pipe();
    },
    cutStreams(): number {
      const cut = streams.size;
      for (const socket of streams) socket.destroy();
      return cut;
    },
    cutAll() {
      for (const socket of sockets) socket.destroy();
    },
  };
  return proxy;
}

/** A gate the agent waits at, opened by the test. */
class Gate {
  #open: (() => void) | undefined;
  #reached: (() => void) | undefined;
  readonly reached = new Promise<void>((resolve) => {
    this.#reached = resolve;
  });
  wait(): Promise<void> {
    this.#reached?.();
    return new Promise((resolve) => {
      this.#open = resolve;
    });
  }
  open(): void {
    this.#open?.();
  }
}

const CHUNKS = 120;
/** Small, so that 60 chunks do not fit: a stream reopened after them starts with the gap event. */
const WINDOW = 4096;

function script(gates: Gate[]) {
  const sessions: AgentSession[] = [];
  const turns: Turn[] = [];
  const say = async (turn: Turn, from: number, to: number) => {
    for (let i = from; i < to; i++) await turn.say(`chunk ${i} `);
  };
  const agent = defineAgent({
    info: { name: "recovering", version: "0" },
    newSession(created) {
      sessions.push(created);
    },
    async prompt(turn) {
      turns.push(turn);
      await say(turn, 0, 20);
      for (const [i, gate] of gates.entries()) {
        await gate.wait();
        // A lost connection cancels the turn (docs/sessions.md), as a cancel would.
        if (turn.signal.aborted) return "cancelled";
        await say(turn, 20 + i * 60, 20 + (i + 1) * 60);
      }
      return "end_turn";
    },
  });
  return {
    agent,
    sessions,
    turns,
    /** Agent-initiated work while the client is idle. */
    background: () => sessions[0]!.startWork((turn) => say(turn, 0, CHUNKS).then(() => "end_turn" as const)),
  };
}

/**
 * What bounds the replay: each stream's own window, or the server-wide budget (each stream's
 * window is 1 MiB by default; the budget makes the streams keep only their share of it).
 */
type Bound = "window" | "budget";

async function serve(agent: ReturnType<typeof defineAgent>, bound: Bound): Promise<AcpHttpServer> {
  const server = await createAcpHttpServer({
    ...(bound === "window" ? { replayWindowBytes: WINDOW } : { replayBudgetBytes: WINDOW }),
    onConnection: (transport) => void agent.serve(transport),
  });
  onCleanup(() => server.close());
  return server;
}

/** Ids are random per run: replaced by their order of first appearance. */
function normalize(snapshot: SessionSnapshot): unknown {
  const ids = new Map<string, string>();
  return JSON.parse(
    JSON.stringify({ timeline: snapshot.timeline, state: snapshot.state }, (key, value) => {
      if (typeof value !== "string" || !/(messageId|toolCallId|sessionId)$/.test(key)) return value;
      if (!ids.has(value)) ids.set(value, `#${ids.size + 1}`);
      return ids.get(value);
    }),
  );
}

type Ordering = "gap during a turn" | "gap holding the turn's end" | "gap while idle" | "connection lost mid-turn";

/** Runs the ordering; `interrupt: false` is the uninterrupted run of the same script. */
async function run(ordering: Ordering, interrupt: boolean, bound: Bound = "window") {
  const gates = ordering === "gap while idle" ? [] : [new Gate(), new Gate()];
  const { agent, sessions, turns, background } = script(gates);
  const first = await serve(agent, bound);
  const second = ordering === "connection lost mid-turn" ? await serve(agent, bound) : first;
  const proxy = await startProxy(first.port);
  const recoveries: SessionRecovery[] = [];
  const acp = await connectRecoverable({
    info: { name: "recovery-test", version: "0" },
    handlers: allowOnce,
    connect: () => connectHttp(`http://127.0.0.1:${proxy.port}/acp`, { reconnect: { initialMs: 10, maxMs: 50 } }),
    reconnect: { backoff: { initialMs: 10, maxMs: 50 } },
    onRecovery: (event) => recoveries.push(event),
  });
  onCleanup(() => acp.close());
  const session = await acp.newSession({ cwd: "/w" });
  const agentChunks = (s: ClientSession) => s.store.getSnapshot().messages.agent.size;

  let outcome: unknown;
  if (ordering === "gap while idle") {
    await session.prompt("hello").done;
    if (interrupt) {
      proxy.hold();
      expect(proxy.cutStreams()).toBeGreaterThan(0);
    }
    await background();
    proxy.release();
    await vi.waitFor(() => expect(agentChunks(acp.session(session.sessionId)!)).toBe(20 + CHUNKS), { timeout: 20_000 });
  } else {
    const turn = session.prompt("go");
    const done = turn.done.then(
      (result) => result,
      (error: ConnectionError) => error,
    );
    await gates[0]!.reached;
    await vi.waitFor(() => expect(agentChunks(session)).toBe(20), { timeout: 20_000 });
    if (ordering === "connection lost mid-turn") {
      if (interrupt) {
        // The instance dies: every socket goes, and what answers next does not know the connection.
        proxy.target = second.port;
        void first.close();
        proxy.cutAll();
      } else {
        // The uninterrupted run: the turn is cancelled at the same point, as losing its connection does.
        await session.cancel();
      }
      await vi.waitFor(() => expect(turns[0]?.signal.aborted).toBe(true), { timeout: 20_000 });
      // The agent stops the turn at the gate; a resume replays its recorded end.
      gates[0]!.open();
      await vi.waitFor(() => expect(sessions[0]?.state).toBe("idle"), { timeout: 20_000 });
      if (interrupt) await vi.waitFor(() => expect(recoveries.length).toBe(1), { timeout: 20_000 });
    } else {
      if (interrupt) {
        proxy.hold();
        expect(proxy.cutStreams()).toBeGreaterThan(0);
      }
      gates[0]!.open();
      await gates[1]!.reached;
      // 60 more chunks than the window holds were sent while the streams were down.
      if (ordering === "gap holding the turn's end") {
        gates[1]!.open();
        await vi.waitFor(() => expect(sessions[0]?.state).toBe("idle"), { timeout: 20_000 });
      }
      proxy.release();
      if (interrupt) await vi.waitFor(() => expect(recoveries.length).toBe(1), { timeout: 20_000 });
      gates[1]!.open();
    }
    outcome = await done;
  }
  await acp.idle();
  const live = acp.session(session.sessionId)!;
  await vi.waitFor(() => expect(live.store.getSnapshot().state.state).toBe("idle"), { timeout: 20_000 });
  // The application's store is the one it always had: the replay was applied to it in one change.
  expect(live.store).toBe(session.store);
  return { snapshot: normalize(live.store.getSnapshot()), recoveries, outcome, live, session };
}

describe("connectRecoverable over Streamable HTTP: recovery ends equal to an uninterrupted run", () => {
  const cases: {
    ordering: Ordering;
    reason: SessionRecovery["reason"];
    turn: "ends" | "fails" | "none";
    bound?: Bound;
  }[] = [
    { ordering: "gap during a turn", reason: "replay_gap", turn: "ends" },
    { ordering: "gap during a turn", reason: "replay_gap", turn: "ends", bound: "budget" },
    { ordering: "gap holding the turn's end", reason: "replay_gap", turn: "ends" },
    { ordering: "gap while idle", reason: "replay_gap", turn: "none" },
    { ordering: "connection lost mid-turn", reason: "connection_lost", turn: "fails" },
  ];
  for (const { ordering, reason, turn, bound = "window" } of cases) {
    const past = bound === "budget" ? ", past the server's replay budget" : "";
    it(`${ordering}${past}: the session is resumed with replay (${reason})`, async () => {
      const reference = await run(ordering, false, bound);
      expect(reference.recoveries).toEqual([]);
      const recovered = await run(ordering, true, bound);
      expect(recovered.recoveries).toEqual([
        { sessionId: recovered.session.sessionId, reason, session: recovered.live },
      ]);
      expect(recovered.snapshot).toEqual(reference.snapshot);
      if (turn === "ends") expect(recovered.outcome).toEqual({ stopReason: "end_turn" });
      if (turn === "fails") {
        expect(reference.outcome).toEqual({ stopReason: "cancelled" });
        expect(recovered.outcome).toMatchObject({ name: "ConnectionError" });
      }
      if (turn === "ends" || turn === "none") expect(recovered.live).toBe(recovered.session);
      else expect(recovered.live).not.toBe(recovered.session);
    }, 60_000);
  }
});
