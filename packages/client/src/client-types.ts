/** The public shapes of `connectToAgent`: its options, the handlers of agent requests, and the client it returns. */
import type { AcpConnection } from "@acp-kit/protocol";
import type { ConnectionError, Logger } from "@acp-kit/protocol/jsonrpc";
import type {
  AgentCapabilities,
  AuthMethod,
  ClientCapabilities,
  CompleteElicitationNotification,
  CreateElicitationRequest,
  CreateElicitationResponse,
  Implementation,
  InitializeResponse,
  ListSessionsRequest,
  ListSessionsResponse,
  McpServer,
  NewSessionRequest,
  ReplayFrom,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionInfo,
} from "@acp-kit/protocol/types";
import type { InitializeResponse as V1InitializeResponse } from "@acp-kit/protocol/v1";
import type { OpenedSession, OpenSessionOptions } from "./resume-policy.js";
import type { ClientSession, TurnOptions } from "./session.js";
import type { SessionStore } from "./store/snapshot-store.js";
import type { V1ClientHandlers } from "./v1/index.js";

/** What a handler of an agent request gets besides the params. */
export interface AgentRequestContext {
  /**
   * Aborted when the answer is no longer wanted: the agent sent `$/cancel_request`, the client
   * cancelled the session's work, or the connection closed. The request has then already been
   * answered (`cancelled` / `cancel`): dismiss any prompt shown to the user.
   */
  readonly signal: AbortSignal;
  /** The session the request belongs to, when it names one this client has open. */
  readonly session: ClientSession | undefined;
}

/** Answers to the agent's requests. Every handler is optional; see each for the default. */
export interface ClientHandlers {
  /** `session/request_permission`. Without a handler every request is answered `cancelled`. */
  requestPermission?(
    request: RequestPermissionRequest,
    context: AgentRequestContext,
  ): RequestPermissionResponse | Promise<RequestPermissionResponse>;
  /**
   * `elicitation/create` in a mode this client advertised (others are refused with -32602 before
   * reaching the handler). Without a handler every request is answered `cancel`.
   */
  createElicitation?(
    request: CreateElicitationRequest,
    context: AgentRequestContext,
  ): CreateElicitationResponse | Promise<CreateElicitationResponse>;
  /** `elicitation/complete` (URL mode). Unknown IDs should be ignored. */
  completeElicitation?(notification: CompleteElicitationNotification): void;
  /** Extension requests (`_`-prefixed methods). Without a handler: -32601. */
  extRequest?(method: string, params: unknown, context: AgentRequestContext): unknown;
  /** Extension notifications (`_`-prefixed methods). Without a handler: ignored. */
  extNotification?(method: string, params: unknown): void;
}

export interface ConnectOptions {
  /** This client's name and version, sent in `initialize`. */
  info: Implementation;
  /** This client's capabilities (`elicitation.form`, `elicitation.url`, `auth.terminal`). Default none. */
  capabilities?: ClientCapabilities;
  handlers?: ClientHandlers;
  logger?: Logger;
  /**
   * Validate what this client sends against the schema before sending (a local
   * `ConnectionError` of kind `invalid_outgoing` instead of a bad message on the wire).
   * Default: on, unless `NODE_ENV === "production"`.
   */
  validateOutgoing?: boolean;
  /** Aborts the `initialize` call (e.g. `AbortSignal.timeout(10_000)`); the connection is then closed. */
  signal?: AbortSignal;
  /** Turn handle settings: update buffer bounds, the missing-`user_message` fallback (docs/turn-model.md). */
  turns?: TurnOptions;
  /** Answers to what only a v1 agent asks (`fs/*`, `terminal/*`); advertised to it only when given. */
  v1Handlers?: V1ClientHandlers;
  /**
   * How long the agent gets to answer `initialize` before the connection is closed and
   * `connectToAgent` rejects with a `ConnectionError` of kind `timeout` naming the agent (and its
   * last stderr lines, for a spawned agent). Default 120 s, room for an `npx` download. `0` waits forever.
   */
  initializeTimeoutMs?: number;
  /**
   * Updates for sessions not known yet are kept while a `session/new` is in flight (they can beat
   * its response); past this many in total, further ones are dropped with a warning. Default 1024.
   */
  maxEarlyUpdates?: number;
}

export const DEFAULT_INITIALIZE_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_EARLY_UPDATES = 1024;

export interface NewSessionOptions {
  /** Store to fill (e.g. one a UI already subscribed to). Default: a new one. */
  store?: SessionStore;
}

export interface ResumeSessionOptions {
  /** The session's working directory (must be the session's own). */
  cwd: string;
  additionalDirectories?: string[];
  mcpServers?: McpServer[];
  /**
   * `true` (or `{ type: "start" }`) replays the retained history: the store is rebuilt from
   * the replay and the state snapshot. `false`/omitted: no replay, the store is kept as is.
   */
  replay?: boolean | ReplayFrom;
  /** Store to fill (e.g. the one a UI kept across a reconnect). Default: the session's current or a new one. */
  store?: SessionStore;
  meta?: Record<string, unknown>;
}

/** An initialized connection to an agent. */
export interface AcpClient {
  /** The typed connection underneath: every message of this client goes through it. */
  readonly connection: AcpConnection<"client">;
  /** The negotiated version: 2, or 1 when the agent speaks v1 (then translated to and from v2). */
  readonly protocolVersion: number;
  /**
   * The agent's `initialize` answer, as received: a v2 answer, or a v1 agent's answer in v1's
   * shape (`protocolVersion: 1`, `agentInfo`, `agentCapabilities` with `loadSession`,
   * `sessionCapabilities`, `auth.logout`, `mcpCapabilities.sse`, ...), decoded by v1's rules.
   */
  readonly initializeResponse: InitializeResponse | V1InitializeResponse;
  /**
   * The answer in v2's shape, which `agentInfo`, `agentCapabilities` and `authMethods` read: the
   * same object as `initializeResponse` for a v2 agent, its translation for a v1 agent (see
   * docs/v1.md), with the negotiated `protocolVersion`.
   */
  readonly initializeResponseV2: InitializeResponse;
  readonly agentInfo: Implementation;
  readonly agentCapabilities: AgentCapabilities;
  readonly authMethods: readonly AuthMethod[];

  newSession(params: NewSessionRequest, options?: NewSessionOptions): Promise<ClientSession>;
  resumeSession(sessionId: string, options: ResumeSessionOptions): Promise<ClientSession>;
  /** Resumes `sessionId` or starts a new session, as `options.resume` says (see resume-policy.ts). */
  openSession(options: OpenSessionOptions): Promise<OpenedSession>;
  /** One page of `session/list`. */
  listSessions(params?: ListSessionsRequest): Promise<ListSessionsResponse>;
  /** `session/list` page by page, following `nextCursor` until the last page. */
  sessionPages(params?: Omit<ListSessionsRequest, "cursor">): AsyncIterableIterator<ListSessionsResponse>;
  /** Every session, following `nextCursor` page by page. */
  allSessions(params?: Omit<ListSessionsRequest, "cursor">): AsyncIterableIterator<SessionInfo>;
  /** `session/close`; an unknown session (-32002) counts as closed. */
  closeSession(sessionId: string): Promise<void>;
  /** `session/delete` (needs `session.delete`); an unknown session (-32002) counts as deleted. */
  deleteSession(sessionId: string): Promise<void>;
  /** `auth/login` with an advertised method of type `agent`. */
  login(methodId: string): Promise<void>;
  /** `auth/logout` (needs advertised auth methods). */
  logout(): Promise<void>;
  /** An extension request; `method` must start with `_`. */
  extRequest<Result = unknown>(method: string, params?: unknown, options?: { signal?: AbortSignal }): Promise<Result>;
  /** An extension notification; `method` must start with `_`. */
  extNotification(method: string, params?: unknown): Promise<void>;
  /** An open session of this connection. */
  session(sessionId: string): ClientSession | undefined;
  /** Closes the connection (pending calls reject with a `ConnectionError`). */
  close(): Promise<void>;
  /** Settles when the connection ends: `undefined` for a clean close, else why it failed. */
  readonly closed: Promise<ConnectionError | undefined>;
}
