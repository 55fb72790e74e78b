/**
 * `connectToAgent()`: the client's end of an ACP connection. Performs `initialize`, keeps what
 * the agent advertised, refuses locally what it did not advertise, routes `session/update`s to
 * their session (strictly in arrival order), and answers the agent's requests.
 */

import {
  type AcpConnection,
  type AcpRequestContext,
  createClientSideConnection,
  ErrorCodes,
  PROTOCOL_VERSION,
} from "@acp-kit/protocol";
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import {
  ConnectionError,
  ConnectionErrorKinds,
  type Disposable,
  RequestAbortedError,
  RequestError,
  type Transport,
} from "@acp-kit/protocol/jsonrpc";
import type {
  AgentCapabilities,
  AgentNotificationMethod,
  AgentNotifications,
  AgentRequestMethod,
  AgentRequests,
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
  SessionUpdate,
} from "@acp-kit/protocol/types";
import { CapabilityNotSupportedError } from "./errors.js";
import { type OpenedSession, type OpenSessionOptions, openSession } from "./resume-policy.js";
import { type ClientSession, SessionEndpoint, type SessionHost, type TurnOptions, type WorkRefs } from "./session.js";
import { SessionStore } from "./store/snapshot-store.js";
import { NegotiatingTransport, type V1ClientHandlers } from "./v1/index.js";

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
  /** The typed connection underneath (`.connection` is the raw JSON-RPC one). */
  readonly connection: AcpConnection<"client">;
  /** The negotiated version: 2, or 1 when the agent speaks v1 (then translated to and from v2). */
  readonly protocolVersion: number;
  /** The agent's `initialize` answer, as received. */
  readonly initializeResponse: InitializeResponse;
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

const PERMISSION_CANCELLED: RequestPermissionResponse = { outcome: { outcome: "cancelled" } };
const ELICITATION_CANCEL: CreateElicitationResponse = { action: "cancel" };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The tool call / terminal a permission request is about, from its subject. */
function permissionRefs(request: RequestPermissionRequest): WorkRefs {
  const subject = request.subject as
    | { type?: unknown; toolCall?: { toolCallId?: unknown }; toolCallId?: unknown; terminalId?: unknown }
    | null
    | undefined;
  const refs: WorkRefs = {};
  if (!subject) return refs;
  const toolCallId = subject.type === "tool_call" ? subject.toolCall?.toolCallId : subject.toolCallId;
  if (typeof toolCallId === "string") refs.toolCallId = toolCallId;
  if (typeof subject.terminalId === "string") refs.terminalId = subject.terminalId;
  return refs;
}

function checkExtMethod(method: string): void {
  if (!method.startsWith("_")) throw new TypeError(`Extension methods must start with "_": ${JSON.stringify(method)}`);
}

/**
 * Performs `initialize` over `transport` and returns the client. On failure the connection is
 * closed and the error thrown: the agent's `RequestError` (e.g. -32022), or a `ConnectionError`
 * of kind `protocol_violation` when the agent answered a protocol version this client cannot
 * speak (its `details` carry `answeredVersion` and `supportedVersions`).
 *
 * @example
 * ```ts
 * import { connectToAgent, selectPermissionOption } from "@acp-kit/client";
 * import { spawnAgent } from "@acp-kit/transport-stdio";
 *
 * const agent = spawnAgent("my-agent", ["--acp"]);
 * const client = await connectToAgent(agent.transport, {
 *   info: { name: "my-editor", version: "1.0.0" },
 *   handlers: { requestPermission: (request) => selectPermissionOption(request, "allow_once") },
 * });
 * const session = await client.newSession({ cwd: process.cwd() });
 * const { stopReason } = await session.prompt("Fix the failing test").done;
 * ```
 */
export async function connectToAgent(transport: Transport, options: ConnectOptions): Promise<AcpClient> {
  // Asks for v2; switches the connection to v1 when the agent answers 1 (see v1/negotiation.ts).
  const negotiation = new NegotiatingTransport(transport, { v1Handlers: options.v1Handlers, logger: options.logger });
  const connection = createClientSideConnection(negotiation, {
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.validateOutgoing === undefined ? {} : { validateOutgoing: options.validateOutgoing }),
  });
  const client = new Client(connection, options);
  connection.listen();
  const timeoutMs = options.initializeTimeoutMs ?? DEFAULT_INITIALIZE_TIMEOUT_MS;
  const abort = new AbortController();
  const timedOut = Symbol("initialize timeout");
  const onCallerAbort = (): void => abort.abort(options.signal?.reason);
  if (options.signal?.aborted) onCallerAbort();
  else options.signal?.addEventListener("abort", onCallerAbort, { once: true });
  const timer = timeoutMs > 0 ? setTimeout(() => abort.abort(timedOut), timeoutMs) : undefined;
  try {
    const params = { protocolVersion: PROTOCOL_VERSION, info: options.info, capabilities: options.capabilities ?? {} };
    const response = await connection.request("initialize", params, { signal: abort.signal });
    if (negotiation.failure) throw negotiation.failure;
    client.initialized({ ...response, protocolVersion: negotiation.protocolVersion ?? response.protocolVersion });
  } catch (error) {
    await connection.close();
    if (negotiation.failure) throw negotiation.failure;
    if (error instanceof RequestAbortedError && error.reason === timedOut)
      throw initializeTimeout(transport, timeoutMs);
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onCallerAbort);
  }
  return client;
}

function initializeTimeout(transport: Transport, timeoutMs: number): ConnectionError {
  const peer = transport.describePeer?.();
  const stderrTail = peer?.stderrTail ?? [];
  const source = peer === undefined ? "The agent" : `The agent (${peer.source})`;
  const tail = stderrTail.length > 0 ? `; its last stderr lines:\n  ${stderrTail.slice(-5).join("\n  ")}` : "";
  return new ConnectionError(
    ConnectionErrorKinds.Timeout,
    `${source} did not answer initialize within ${timeoutMs} ms${tail}`,
    { details: { timeoutMs, ...(peer === undefined ? {} : { source: peer.source, stderrTail }) } },
  );
}

class Client implements AcpClient, SessionHost {
  readonly connection: AcpConnection<"client">;
  readonly logger: Logger | undefined;
  readonly closed: Promise<ConnectionError | undefined>;
  readonly #options: ConnectOptions;
  readonly #handlers: ClientHandlers;
  #initialize: InitializeResponse | undefined;
  readonly #sessions = new Map<string, SessionEndpoint>();
  /** Updates for sessions not known yet, kept while a `session/new` is in flight. */
  readonly #early = new Map<string, SessionUpdate[]>();
  #earlyCount = 0;
  #earlyDropped = 0;
  readonly #maxEarlyUpdates: number;
  #newSessionsInFlight = 0;
  #closedError: ConnectionError | undefined;

  constructor(connection: AcpConnection<"client">, options: ConnectOptions) {
    this.connection = connection;
    this.#options = options;
    this.#handlers = options.handlers ?? {};
    this.logger = options.logger;
    this.#maxEarlyUpdates = options.maxEarlyUpdates ?? DEFAULT_MAX_EARLY_UPDATES;
    this.closed = connection.closed;
    this.#register();
    void connection.closed.then((error) => {
      this.#closedError = error ?? ConnectionError.closed();
      for (const runtime of this.#sessions.values()) runtime.connectionClosed(this.#closedError);
    });
  }

  initialized(response: InitializeResponse): void {
    this.#initialize = response;
  }

  get initializeResponse(): InitializeResponse {
    return this.#initialize!;
  }
  get protocolVersion(): number {
    return this.initializeResponse.protocolVersion;
  }
  get agentInfo(): Implementation {
    return this.initializeResponse.info;
  }
  get agentCapabilities(): AgentCapabilities {
    return this.initializeResponse.capabilities ?? {};
  }
  get authMethods(): readonly AuthMethod[] {
    return this.initializeResponse.authMethods ?? [];
  }
  get promptCapabilities() {
    return this.agentCapabilities.session?.prompt;
  }
  get turnOptions(): TurnOptions | undefined {
    return this.#options.turns;
  }
  get closedError(): ConnectionError | undefined {
    return this.#closedError ?? (this.connection.isClosed ? ConnectionError.closed() : undefined);
  }

  // ---- transport-level plumbing for sessions ---------------------------------------------------

  request<M extends AgentRequestMethod>(
    method: M,
    params: AgentRequests[M]["params"],
    signal?: AbortSignal,
  ): Promise<AgentRequests[M]["result"]> {
    // The generic parameter cannot be narrowed through the connection's conditional types.
    return this.connection.request(method, params as never, { signal }) as Promise<AgentRequests[M]["result"]>;
  }

  notify<M extends AgentNotificationMethod>(method: M, params: AgentNotifications[M]["params"]): Promise<void> {
    return this.connection.notify(method, params as never);
  }

  // ---- capability checks ----------------------------------------------------------------------

  #requireSession(method: AgentRequestMethod): NonNullable<AgentCapabilities["session"]> {
    const session = this.agentCapabilities.session;
    if (!session) throw new CapabilityNotSupportedError(method, "agentCapabilities.session");
    return session;
  }

  #checkEnvironment(
    method: AgentRequestMethod,
    params: { additionalDirectories?: string[] | null; mcpServers?: McpServer[] | null },
  ): void {
    const session = this.#requireSession(method);
    if (params.additionalDirectories && params.additionalDirectories.length > 0 && !session.additionalDirectories) {
      throw new CapabilityNotSupportedError(method, "agentCapabilities.session.additionalDirectories");
    }
    for (const [index, server] of (params.mcpServers ?? []).entries()) {
      const type = server.type;
      if ((type === "stdio" || type === "http") && session.mcp?.[type]) continue;
      throw new CapabilityNotSupportedError(
        method,
        `agentCapabilities.session.mcp.${type}`,
        `mcpServers[${index}] "${server.name}"`,
      );
    }
  }

  // ---- sessions -------------------------------------------------------------------------------

  session(sessionId: string): ClientSession | undefined {
    return this.#sessions.get(sessionId)?.session;
  }

  async newSession(params: NewSessionRequest, options: NewSessionOptions = {}): Promise<ClientSession> {
    this.#checkEnvironment("session/new", params);
    this.#newSessionsInFlight++;
    try {
      const result = await this.request("session/new", params);
      const runtime = new SessionEndpoint(result.sessionId, this, options.store);
      this.#sessions.set(result.sessionId, runtime);
      // Updates that beat the response (a state_update, the command list, ...) are applied
      // first; the response's lists only fill what no update has reported yet.
      const early = this.#early.get(result.sessionId) ?? [];
      for (const update of early) runtime.receive(update);
      this.#early.delete(result.sessionId);
      this.#earlyCount -= early.length;
      if (Array.isArray(result.configOptions) && !runtime.sawConfigOptionsUpdate)
        runtime.store.setConfigOptions(result.configOptions);
      if (Array.isArray(result.availableCommands) && !runtime.sawCommandsUpdate)
        runtime.store.setAvailableCommands(result.availableCommands);
      return runtime.session;
    } finally {
      if (--this.#newSessionsInFlight === 0 && (this.#early.size > 0 || this.#earlyDropped > 0)) {
        this.logger?.warn?.("Dropped session/update notifications for sessions no session/new returned", {
          sessionIds: [...this.#early.keys()].slice(0, 10),
          updates: this.#earlyCount,
          overLimit: this.#earlyDropped,
        });
        this.#early.clear();
        this.#earlyCount = 0;
        this.#earlyDropped = 0;
      }
    }
  }

  async resumeSession(sessionId: string, options: ResumeSessionOptions): Promise<ClientSession> {
    const { cwd, additionalDirectories, mcpServers, replay, store, meta } = options;
    const replayFrom: ReplayFrom | undefined =
      replay === true ? { type: "start" } : replay === false || replay === undefined ? undefined : replay;
    const params: AgentRequests["session/resume"]["params"] = { sessionId, cwd };
    if (additionalDirectories !== undefined) params.additionalDirectories = additionalDirectories;
    if (mcpServers !== undefined) params.mcpServers = mcpServers;
    if (replayFrom !== undefined) params.replayFrom = replayFrom;
    if (meta !== undefined) params._meta = meta;
    this.#checkEnvironment("session/resume", params);

    // Resuming a session already open on this connection keeps its runtime (and its handles).
    const existing = this.#sessions.get(sessionId);
    const runtime = existing ?? new SessionEndpoint(sessionId, this, store);
    const target = store ?? runtime.store;
    const before = runtime.store;
    // With replay, history is rebuilt in a fresh store (replay, then the state snapshot) that
    // the target store takes over in one change when the response arrives, so a UI never
    // renders a half-replayed session. Without replay, updates go straight to the target.
    runtime.useStore(replayFrom !== undefined ? new SessionStore({ logger: this.logger }) : target);
    this.#sessions.set(sessionId, runtime);
    let result: AgentRequests["session/resume"]["result"];
    try {
      result = await this.request("session/resume", params);
    } catch (error) {
      runtime.useStore(before);
      if (!existing && this.#sessions.get(sessionId) === runtime) this.#sessions.delete(sessionId);
      throw error;
    }
    if (replayFrom !== undefined) {
      target.replaceWith(runtime.store);
      runtime.useStore(target);
    }
    if (Array.isArray(result.configOptions) && !runtime.sawConfigOptionsUpdate)
      runtime.store.setConfigOptions(result.configOptions);
    if (Array.isArray(result.availableCommands) && !runtime.sawCommandsUpdate)
      runtime.store.setAvailableCommands(result.availableCommands);
    return runtime.session;
  }

  openSession(options: OpenSessionOptions): Promise<OpenedSession> {
    return openSession(this, options);
  }

  async listSessions(params: ListSessionsRequest = {}): Promise<ListSessionsResponse> {
    this.#requireSession("session/list");
    return await this.request("session/list", params);
  }

  async *sessionPages(params: Omit<ListSessionsRequest, "cursor"> = {}): AsyncIterableIterator<ListSessionsResponse> {
    this.#requireSession("session/list");
    let cursor: string | null | undefined;
    do {
      // Cursors are opaque: passed back exactly as received ("" is a real cursor).
      const page = await this.request(
        "session/list",
        cursor === undefined || cursor === null ? params : { ...params, cursor },
      );
      yield page;
      cursor = page.nextCursor;
    } while (cursor !== undefined && cursor !== null);
  }

  async *allSessions(params: Omit<ListSessionsRequest, "cursor"> = {}): AsyncIterableIterator<SessionInfo> {
    for await (const page of this.sessionPages(params)) yield* page.sessions ?? [];
  }

  async closeSession(sessionId: string): Promise<void> {
    this.#requireSession("session/close");
    const runtime = this.#sessions.get(sessionId);
    if (runtime) runtime.closing = true;
    try {
      await this.request("session/close", { sessionId });
    } catch (error) {
      if (!(error instanceof RequestError && error.code === ErrorCodes.ResourceNotFound)) {
        if (runtime) runtime.closing = false;
        throw error;
      }
    }
    if (runtime && this.#sessions.get(sessionId) === runtime) {
      this.#sessions.delete(sessionId);
      runtime.closed();
    }
  }

  async deleteSession(sessionId: string): Promise<void> {
    const session = this.#requireSession("session/delete");
    if (!session.delete) throw new CapabilityNotSupportedError("session/delete", "agentCapabilities.session.delete");
    try {
      await this.request("session/delete", { sessionId });
    } catch (error) {
      if (!(error instanceof RequestError && error.code === ErrorCodes.ResourceNotFound)) throw error;
    }
    // A deleted session is gone on this side too (the agent closed it first).
    const runtime = this.#sessions.get(sessionId);
    if (runtime) {
      this.#sessions.delete(sessionId);
      runtime.closed();
    }
  }

  // ---- auth and extensions ----------------------------------------------------------------------

  async login(methodId: string): Promise<void> {
    if (this.authMethods.length === 0) throw new CapabilityNotSupportedError("auth/login", "authMethods");
    const method = this.authMethods.find((m) => m.methodId === methodId);
    if (!method)
      throw new CapabilityNotSupportedError("auth/login", `an auth method with methodId ${JSON.stringify(methodId)}`);
    if (method.type !== "agent") {
      throw new CapabilityNotSupportedError(
        "auth/login",
        `methodId ${JSON.stringify(methodId)} as an "agent" auth method`,
        `it is of type "${method.type}": run it client-side, never via auth/login`,
      );
    }
    await this.request("auth/login", { methodId });
  }

  async logout(): Promise<void> {
    if (this.authMethods.length === 0) throw new CapabilityNotSupportedError("auth/logout", "authMethods");
    await this.request("auth/logout", {});
  }

  async extRequest<Result = unknown>(
    method: string,
    params?: unknown,
    options: { signal?: AbortSignal } = {},
  ): Promise<Result> {
    checkExtMethod(method);
    return await this.connection.requestExt<Result>(method as `_${string}`, params, options);
  }

  async extNotification(method: string, params?: unknown): Promise<void> {
    checkExtMethod(method);
    await this.connection.notifyExt(method as `_${string}`, params);
  }

  close(): Promise<void> {
    return this.connection.close();
  }

  // ---- inbound --------------------------------------------------------------------------------

  #register(): Disposable[] {
    const c = this.connection;
    return [
      c.onNotification("session/update", (params) => this.#onUpdate(params)),
      c.onRequest("session/request_permission", (params, ctx) => this.#onPermission(params, ctx)),
      c.onRequest("elicitation/create", (params, ctx) => this.#onElicitation(params, ctx)),
      c.onNotification("elicitation/complete", (params) => this.#handlers.completeElicitation?.(params)),
      c.onUnhandledExtRequest((params, ctx) => {
        const handler = this.#handlers.extRequest;
        if (!handler) throw RequestError.methodNotFound(ctx.method);
        return handler(ctx.method, params, { signal: ctx.signal, session: undefined });
      }),
      c.onUnhandledExtNotification((params, ctx) => {
        this.#handlers.extNotification?.(ctx.method, params);
      }),
    ];
  }

  /** Returns a promise while a session's iterated handles are too far behind (inbound backpressure). */
  #onUpdate(params: unknown): Promise<void> | undefined {
    if (
      !isObject(params) ||
      typeof params.sessionId !== "string" ||
      !isObject(params.update) ||
      typeof params.update.sessionUpdate !== "string"
    ) {
      this.logger?.warn?.("Dropped a malformed session/update", { params });
      return;
    }
    const update = params.update as SessionUpdate;
    const runtime = this.#sessions.get(params.sessionId);
    if (runtime) {
      return runtime.receive(update);
    }
    if (this.#newSessionsInFlight > 0) {
      if (this.#earlyCount >= this.#maxEarlyUpdates) {
        if (this.#earlyDropped++ === 0)
          this.logger?.warn?.("Dropping session/update notifications for unknown sessions: early-update buffer full", {
            maxEarlyUpdates: this.#maxEarlyUpdates,
          });
        return;
      }
      this.#earlyCount++;
      const early = this.#early.get(params.sessionId);
      if (early) early.push(update);
      else this.#early.set(params.sessionId, [update]);
    } else {
      this.logger?.warn?.("Dropped a session/update for a session this client does not have open", {
        sessionId: params.sessionId,
      });
    }
    return undefined;
  }

  #onPermission(
    params: RequestPermissionRequest,
    ctx: AcpRequestContext<"client">,
  ): RequestPermissionResponse | Promise<RequestPermissionResponse> {
    const runtime = this.#sessions.get(params.sessionId);
    runtime?.permissionRequested(params);
    const handler = this.#handlers.requestPermission;
    if (!handler) return PERMISSION_CANCELLED;
    return this.#answerUnlessCancelled(
      ctx,
      runtime,
      permissionRefs(params),
      (context) => handler(params, context),
      PERMISSION_CANCELLED,
    );
  }

  #onElicitation(
    params: CreateElicitationRequest,
    ctx: AcpRequestContext<"client">,
  ): CreateElicitationResponse | Promise<CreateElicitationResponse> {
    const mode = (params as { mode?: unknown }).mode;
    const advertised = this.#options.capabilities?.elicitation;
    if (!((mode === "form" && advertised?.form) || (mode === "url" && advertised?.url))) {
      throw RequestError.invalidParams(`This client did not advertise elicitation mode ${JSON.stringify(mode)}`);
    }
    const sessionId = (params as { sessionId?: unknown }).sessionId;
    const runtime = typeof sessionId === "string" ? this.#sessions.get(sessionId) : undefined;
    const handler = this.#handlers.createElicitation;
    if (!handler) return ELICITATION_CANCEL;
    const toolCallId = (params as { toolCallId?: unknown }).toolCallId;
    const refs: WorkRefs = typeof toolCallId === "string" ? { toolCallId } : {};
    return this.#answerUnlessCancelled(ctx, runtime, refs, (context) => handler(params, context), ELICITATION_CANCEL);
  }

  /**
   * Runs a handler for an agent request that waits on the user, answering `cancelledValue` at
   * once if the agent cancels the request, the client cancels the session's work, or the
   * connection closes — whichever comes first; the handler's signal then aborts.
   */
  async #answerUnlessCancelled<T>(
    ctx: AcpRequestContext<"client">,
    runtime: SessionEndpoint | undefined,
    refs: WorkRefs,
    run: (context: AgentRequestContext) => T | Promise<T>,
    cancelledValue: T,
  ): Promise<T> {
    const controller = new AbortController();
    const untrack = runtime?.trackPendingRequest(controller, refs);
    const onPeerAbort = (): void => controller.abort(ctx.signal.reason);
    if (ctx.signal.aborted) controller.abort(ctx.signal.reason);
    else ctx.signal.addEventListener("abort", onPeerAbort, { once: true });
    try {
      return await new Promise<T>((resolve, reject) => {
        if (controller.signal.aborted) return resolve(cancelledValue);
        controller.signal.addEventListener("abort", () => resolve(cancelledValue), { once: true });
        Promise.resolve()
          .then(() => run({ signal: controller.signal, session: runtime?.session }))
          .then(resolve, reject);
      });
    } finally {
      untrack?.();
      ctx.signal.removeEventListener("abort", onPeerAbort);
      controller.abort();
    }
  }
}
