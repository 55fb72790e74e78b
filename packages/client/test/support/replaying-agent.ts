/**
 * An agent whose sessions outlive connections (as a server-side agent behind WebSocket does):
 * work goes on while no client is attached, every update is kept in the session's history, and
 * `session/resume` with replay sends the compacted history (compacted by @acp-kit/agent's
 * `compactHistory`, an implementation independent of the client's store) and the current state.
 */
import { compactHistory } from "@acp-kit/agent";
import { sessionNotFoundError } from "@acp-kit/protocol";
import {
  Connection,
  ConnectionError,
  createInMemoryTransportPair,
  type InMemoryTransport,
} from "@acp-kit/protocol/jsonrpc";
import type { SessionUpdate } from "@acp-kit/protocol/types";

export class ReplayingAgent {
  readonly sessionId = "s";
  readonly cwd = "/w";
  readonly history: SessionUpdate[] = [];
  state: SessionUpdate = { sessionUpdate: "state_update", state: "idle" } as SessionUpdate;
  /** The connection the session is attached to (created or resumed on it). */
  #attached: Connection | undefined;
  #liveTransport: InMemoryTransport | undefined;
  readonly #connections: Connection[] = [];
  readonly #agentEnds: InMemoryTransport[] = [];
  #messageIds = 0;

  /** Opens a new connection to the agent; returns the client's end. */
  connect(): InMemoryTransport {
    const [clientEnd, agentEnd] = createInMemoryTransportPair();
    const conn = new Connection(agentEnd);
    this.#connections.push(conn);
    this.#agentEnds.push(agentEnd);
    conn.onRequest("initialize", () => ({
      protocolVersion: 2,
      info: { name: "replaying-agent", version: "1" },
      capabilities: { session: {} },
    }));
    conn.onRequest("session/new", () => {
      this.#attached = conn;
      return { sessionId: this.sessionId };
    });
    conn.onRequest("session/prompt", () => ({ messageId: `u${++this.#messageIds}` }));
    conn.onNotification("session/cancel", () => {});
    conn.onRequest("session/resume", async (params: { sessionId: string; replayFrom?: { type: string } | null }) => {
      if (params.sessionId !== this.sessionId) throw sessionNotFoundError(params.sessionId);
      // Replay, then the current state snapshot, then the response; live updates follow.
      const replay = params.replayFrom ? compactHistory(this.history) : [];
      for (const update of replay) void conn.notify("session/update", { sessionId: this.sessionId, update });
      void conn.notify("session/update", { sessionId: this.sessionId, update: this.state });
      this.#attached = conn;
      return {};
    });
    conn.listen();
    this.#liveTransport = agentEnd;
    return clientEnd;
  }

  /** Resolves once every connection opened to this agent is quiet (each pair's `settled()`). */
  async settled(): Promise<void> {
    await Promise.all(this.#agentEnds.map((end) => end.settled()));
  }

  /** Emits one update: kept in history (notices and state excepted), sent live if a client is attached. */
  async emit(update: Record<string, unknown>): Promise<void> {
    const u = update as SessionUpdate;
    if (u.sessionUpdate === "state_update") this.state = u;
    else if (u.sessionUpdate !== "notice") this.history.push(u);
    const live = this.#attached;
    if (live && !live.isClosed)
      await live.notify("session/update", { sessionId: this.sessionId, update: u }).catch(() => {});
  }

  /** Breaks the live connection, as a network failure would. */
  drop(): void {
    this.#attached = undefined;
    this.#liveTransport?.fail(new ConnectionError("closed", "network dropped"));
  }

  async close(): Promise<void> {
    for (const conn of this.#connections) await conn.close();
  }
}
