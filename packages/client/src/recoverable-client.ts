/**
 * A client that recovers its sessions by itself, on any transport:
 * - a session's stream lost updates (a transport that reports replay gaps, e.g. Streamable
 *   HTTP past the server's window): that session is resumed with replay on the same connection;
 * - the connection is gone (the agent process died, a proxy answered 404 for the connection):
 *   a fresh transport is opened (`createReconnectingConnection`, backoff and budget), initialized,
 *   and every open session is resumed with replay.
 * Either way the replay lands in the session's own store in one change (see `resumeSession`), and
 * `onRecovery` names the session and the reason. Work that was running on a lost connection fails
 * with its `ConnectionError` (the agent may or may not have finished it; the replay shows which).
 */
import {
  type BackoffOptions,
  ConnectionError,
  createReconnectingConnection,
  type ReconnectingState,
  type Transport,
} from "@acp-kit/protocol/jsonrpc";
import type { NewSessionRequest } from "@acp-kit/protocol/types";
import { connectToAgent } from "./client.js";
import type { AcpClient, ConnectOptions, NewSessionOptions, ResumeSessionOptions } from "./client-types.js";
import type { ClientSession } from "./session.js";
import type { SessionStore } from "./store/snapshot-store.js";

/** What a transport that can lose a stream's messages offers (`connectHttp`'s transport does). */
export interface ReplayGapSource {
  /** `listener` learns of each gap; `sessionId` undefined: the connection's own stream. */
  onReplayGap(listener: (gap: { sessionId: string | undefined }) => void): () => void;
}

/** Why a session was recovered. */
export type RecoveryReason = "replay_gap" | "connection_lost";

export interface SessionRecovery {
  sessionId: string;
  reason: RecoveryReason;
  /** The session's live handle after the resume; undefined when it failed. */
  session?: ClientSession;
  /** Why the session could not be resumed (e.g. the agent no longer knows it); it is then dropped. */
  error?: Error;
}

export interface RecoverableClientOptions extends Omit<ConnectOptions, "signal"> {
  /** Opens a fresh transport to the agent, e.g. `() => connectHttp(url)`. Called again after each loss. */
  connect(attempt: number, signal: AbortSignal): Promise<Transport>;
  /** A session was resumed after a gap or a lost connection (or could not be). */
  onRecovery?(event: SessionRecovery): void;
  /** Reconnect pacing after a lost connection (see `createReconnectingConnection`). Default: 60 s budget. */
  reconnect?: { backoff?: BackoffOptions; maxAttempts?: number; budgetMs?: number };
  /** Closes the client when aborted. */
  signal?: AbortSignal;
}

export interface RecoverableClient {
  readonly state: ReconnectingState;
  /** The client of the live connection; undefined while reconnecting or closed. */
  readonly client: AcpClient | undefined;
  /** Resolves with the live client (waits while reconnecting); rejects once given up or closed. */
  ready(): Promise<AcpClient>;
  /** `session/new` on the live connection; the session is recovered from then on. */
  newSession(params: NewSessionRequest, options?: NewSessionOptions): Promise<ClientSession>;
  /** `session/resume` on the live connection; the session is recovered from then on. */
  resumeSession(sessionId: string, options: ResumeSessionOptions): Promise<ClientSession>;
  /** The session's handle on the live connection (a new handle after each reconnect). */
  session(sessionId: string): ClientSession | undefined;
  /** `session/close`, and the session is no longer recovered. */
  closeSession(sessionId: string): Promise<void>;
  /** Settles once the recoveries started so far are done. */
  idle(): Promise<void>;
  /** Stops recovering and closes the live connection. */
  close(): Promise<void>;
  /** Settles once it stops for good: `undefined` after `close()`, the reason after giving up. */
  readonly closed: Promise<Error | undefined>;
}

/** What resuming a session again takes: its directories, servers and the store the application holds. */
interface Tracked {
  resume: Omit<ResumeSessionOptions, "replay" | "meta">;
  store: SessionStore;
  /** Recoveries of this session run one after another. */
  chain: Promise<void>;
}

/**
 * Connects with `options.connect` and keeps the sessions opened through it recovered (see the
 * file's comment). Resolves once the first connection is initialized.
 *
 * @example
 * ```ts
 * import { connectRecoverable } from "@acp-kit/client";
 * import { connectHttp } from "@acp-kit/transport-http";
 *
 * const acp = await connectRecoverable({
 *   info: { name: "my-editor", version: "1.0.0" },
 *   connect: () => connectHttp("https://agents.example.com/acp"),
 *   onRecovery: ({ sessionId, reason }) => console.log(`session ${sessionId} recovered (${reason})`),
 * });
 * const session = await acp.newSession({ cwd: "/work/project" });
 * ```
 */
export async function connectRecoverable(options: RecoverableClientOptions): Promise<RecoverableClient> {
  const recoverable = new Recoverable(options);
  try {
    await recoverable.ready();
  } catch (error) {
    await recoverable.close();
    throw error;
  }
  return recoverable;
}

class Recoverable implements RecoverableClient {
  readonly #options: RecoverableClientOptions;
  readonly #sessions = new Map<string, Tracked>();
  readonly #connection;
  /** Recoveries in flight (for `idle`). */
  readonly #running = new Set<Promise<void>>();
  readonly closed: Promise<Error | undefined>;

  constructor(options: RecoverableClientOptions) {
    this.#options = options;
    const { connect, onRecovery: _onRecovery, reconnect, signal, ...connectOptions } = options;
    let lost: Error | undefined;
    this.#connection = createReconnectingConnection<AcpClient>({
      connect,
      onConnected: async (transport, info) => {
        const client = await connectToAgent(transport, { ...connectOptions, signal: info.signal });
        // `transport` is the reconnecting layer's observer; the gaps are the opened transport's.
        const inner = ((transport as { inner?: unknown }).inner ?? transport) as Partial<ReplayGapSource>;
        if (typeof inner.onReplayGap === "function")
          inner.onReplayGap(({ sessionId }) => {
            if (sessionId !== undefined) this.#gap(client, sessionId);
          });
        if (info.reconnect) await this.#resumeAll(client, lost);
        return client;
      },
      onDisconnected: ({ error }) => {
        lost = error;
      },
      ...(reconnect?.backoff === undefined ? {} : { backoff: reconnect.backoff }),
      ...(reconnect?.maxAttempts === undefined ? {} : { maxAttempts: reconnect.maxAttempts }),
      ...(reconnect?.budgetMs === undefined ? {} : { budgetMs: reconnect.budgetMs }),
      ...(signal === undefined ? {} : { signal }),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    });
    this.closed = this.#connection.closed;
  }

  get state(): ReconnectingState {
    return this.#connection.state;
  }

  get client(): AcpClient | undefined {
    return this.#connection.current;
  }

  ready(): Promise<AcpClient> {
    return this.#connection.ready();
  }

  async newSession(params: NewSessionRequest, options: NewSessionOptions = {}): Promise<ClientSession> {
    const session = await (await this.ready()).newSession(params, options);
    const resume: Tracked["resume"] = { cwd: params.cwd };
    if (params.additionalDirectories !== undefined) resume.additionalDirectories = params.additionalDirectories;
    if (params.mcpServers !== undefined) resume.mcpServers = params.mcpServers;
    this.#sessions.set(session.sessionId, { resume, store: session.store, chain: Promise.resolve() });
    return session;
  }

  async resumeSession(sessionId: string, options: ResumeSessionOptions): Promise<ClientSession> {
    const session = await (await this.ready()).resumeSession(sessionId, options);
    const { replay: _replay, meta: _meta, store: _store, ...resume } = options;
    this.#sessions.set(sessionId, { resume, store: session.store, chain: Promise.resolve() });
    return session;
  }

  session(sessionId: string): ClientSession | undefined {
    return this.client?.session(sessionId);
  }

  async closeSession(sessionId: string): Promise<void> {
    this.#sessions.delete(sessionId);
    await (await this.ready()).closeSession(sessionId);
  }

  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  close(): Promise<void> {
    return this.#connection.close();
  }

  /** A session's stream lost updates: resume it with replay on the same connection. */
  #gap(client: AcpClient, sessionId: string): void {
    const tracked = this.#sessions.get(sessionId);
    if (tracked === undefined) {
      this.#options.logger?.warn?.(`Session ${sessionId} lost updates but was not opened here; not recovered`);
      return;
    }
    this.#track(
      tracked,
      (async () => {
        try {
          const session = await this.#resume(client, sessionId, tracked);
          this.#report({ sessionId, reason: "replay_gap", session });
        } catch (error) {
          // A lost connection is the reconnect's business: it resumes every session.
          if (isConnectionLoss(error) || client.connection.isClosed) return;
          this.#drop(sessionId, tracked, "replay_gap", error);
        }
      })(),
    );
  }

  /** A fresh connection: resume every session with replay. A lost connection fails the attempt. */
  async #resumeAll(client: AcpClient, lost: Error | undefined): Promise<void> {
    const reason: RecoveryReason =
      lost instanceof ConnectionError && lost.details.reason === "replay_gap" ? "replay_gap" : "connection_lost";
    const resumes = [...this.#sessions].map(([sessionId, tracked]) => {
      const done = (async () => {
        try {
          const session = await this.#resume(client, sessionId, tracked);
          return () => this.#report({ sessionId, reason, session });
        } catch (error) {
          if (isConnectionLoss(error)) throw error;
          return () => this.#drop(sessionId, tracked, reason, error);
        }
      })();
      this.#track(
        tracked,
        done.then(
          () => {},
          () => {},
        ),
      );
      return done;
    });
    const reports = await Promise.all(resumes);
    // Reported once this connection is the live one, so a handler can use `client` and `session()`
    // (an attempt that fails after this is not reported: the next one resumes and reports).
    void this.#connection.ready().then(
      (live) => {
        if (live === client) for (const report of reports) report();
      },
      () => {},
    );
  }

  async #resume(client: AcpClient, sessionId: string, tracked: Tracked): Promise<ClientSession> {
    await tracked.chain;
    return await client.resumeSession(sessionId, { ...tracked.resume, replay: true, store: tracked.store });
  }

  #track(tracked: Tracked, recovery: Promise<void>): void {
    tracked.chain = recovery;
    this.#running.add(recovery);
    void recovery.finally(() => this.#running.delete(recovery));
  }

  #drop(sessionId: string, tracked: Tracked, reason: RecoveryReason, error: unknown): void {
    if (this.#sessions.get(sessionId) === tracked) this.#sessions.delete(sessionId);
    this.#report({ sessionId, reason, error: error instanceof Error ? error : new Error(String(error)) });
  }

  #report(event: SessionRecovery): void {
    try {
      this.#options.onRecovery?.(event);
    } catch (error) {
      this.#options.logger?.error?.("onRecovery threw", error);
    }
  }
}

function isConnectionLoss(error: unknown): boolean {
  return error instanceof ConnectionError;
}
