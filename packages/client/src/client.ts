/**
 * `connectToAgent()`: the client's end of an ACP connection. Performs `initialize` and keeps
 * what the agent advertised; everything goes through the typed connection, which refuses
 * locally what the agent did not advertise (`CapabilityNotSupportedError`, nothing sent). Routes
 * `session/update`s to their session (update-routing.ts) and answers the agent's requests
 * (agent-requests.ts).
 */

import {
  type AcpConnection,
  createClientSideConnection,
  ErrorCodes,
  isExtensionMethod,
  PROTOCOL_VERSION,
} from "@acp-kit/protocol";
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import {
  ConnectionError,
  ConnectionErrorKinds,
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
  Implementation,
  InitializeResponse,
  ListSessionsRequest,
  ListSessionsResponse,
  NewSessionRequest,
  ReplayFrom,
  SessionInfo,
} from "@acp-kit/protocol/types";
import type { InitializeResponse as V1InitializeResponse } from "@acp-kit/protocol/v1";
import { registerAgentRequests } from "./agent-requests.js";
import type {
  AcpClient,
  ClientHandlers,
  ConnectOptions,
  NewSessionOptions,
  ResumeSessionOptions,
} from "./client-types.js";
import { CapabilityNotSupportedError } from "./errors.js";
import type { OpenedSession, OpenSessionOptions } from "./resume-policy.js";
import { type ClientSession, SessionEndpoint, type SessionHost, type TurnOptions } from "./session.js";
import { SessionStore } from "./store/snapshot-store.js";
import { UpdateRouting } from "./update-routing.js";
import { NegotiatingTransport } from "./v1/index.js";

export type {
  AcpClient,
  AgentRequestContext,
  ClientHandlers,
  ConnectOptions,
  NewSessionOptions,
  ResumeSessionOptions,
} from "./client-types.js";

export const DEFAULT_INITIALIZE_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_EARLY_UPDATES = 1024;

function checkExtMethod(method: string): `_${string}` {
  if (!isExtensionMethod(method))
    throw new TypeError(`Extension methods must start with "_": ${JSON.stringify(method)}`);
  return method;
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
    // What the agent did not advertise is refused locally: nothing is sent.
    refuseUnadvertised: CapabilityNotSupportedError.of,
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
    client.initialized(
      { ...response, protocolVersion: negotiation.protocolVersion ?? response.protocolVersion },
      negotiation,
    );
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
  #initialize: InitializeResponse | undefined;
  #negotiation: NegotiatingTransport | undefined;
  readonly #sessions = new Map<string, SessionEndpoint>();
  readonly #updates: UpdateRouting;
  #closedError: ConnectionError | undefined;

  constructor(connection: AcpConnection<"client">, options: ConnectOptions) {
    this.connection = connection;
    this.#options = options;
    this.logger = options.logger;
    this.#updates = new UpdateRouting(
      this.#sessions,
      options.logger,
      options.maxEarlyUpdates ?? DEFAULT_MAX_EARLY_UPDATES,
    );
    this.closed = connection.closed;
    const handlers: ClientHandlers = options.handlers ?? {};
    connection.onNotification("session/update", (params) => this.#updates.route(params));
    registerAgentRequests(connection, handlers, (sessionId) => this.#sessions.get(sessionId));
    void connection.closed.then((error) => {
      this.#closedError = error ?? ConnectionError.closed();
      for (const runtime of this.#sessions.values()) runtime.connectionClosed(this.#closedError);
    });
  }

  initialized(response: InitializeResponse, negotiation: NegotiatingTransport): void {
    this.#initialize = response;
    this.#negotiation = negotiation;
  }

  get initializeResponse(): InitializeResponse | V1InitializeResponse {
    return this.#negotiation?.v1InitializeResponse ?? this.initializeResponseV2;
  }
  get initializeResponseV2(): InitializeResponse {
    return this.#initialize!;
  }
  get protocolVersion(): number {
    return this.initializeResponseV2.protocolVersion;
  }
  get agentInfo(): Implementation {
    return this.initializeResponseV2.info;
  }
  get agentCapabilities(): AgentCapabilities {
    return this.initializeResponseV2.capabilities ?? {};
  }
  get authMethods(): readonly AuthMethod[] {
    return this.initializeResponseV2.authMethods ?? [];
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

  // ---- the connection, for sessions -----------------------------------------------------------

  request<M extends AgentRequestMethod>(
    method: M,
    params: AgentRequests[M]["params"],
    signal?: AbortSignal,
  ): Promise<AgentRequests[M]["result"]> {
    // A v1 agent gates some methods on markers v2 does not have: refused here, nothing sent.
    const missing = this.#negotiation?.missingCapability(method);
    if (missing !== undefined) return Promise.reject(CapabilityNotSupportedError.of(missing));
    return this.connection.request(method, params, { signal });
  }

  notify<M extends AgentNotificationMethod>(method: M, params: AgentNotifications[M]["params"]): Promise<void> {
    return this.connection.notify(method, params);
  }

  // ---- sessions -------------------------------------------------------------------------------

  session(sessionId: string): ClientSession | undefined {
    return this.#sessions.get(sessionId)?.session;
  }

  async newSession(params: NewSessionRequest, options: NewSessionOptions = {}): Promise<ClientSession> {
    this.#updates.opening();
    try {
      const result = await this.request("session/new", params);
      const runtime = new SessionEndpoint(result.sessionId, this, options.store);
      this.#sessions.set(result.sessionId, runtime);
      // Updates that beat the response (a state_update, the command list, ...) are applied
      // first; the response's lists only fill what no update has reported yet.
      for (const update of this.#updates.takeEarly(result.sessionId)) runtime.receive(update);
      if (Array.isArray(result.configOptions) && !runtime.sawConfigOptionsUpdate)
        runtime.store.setConfigOptions(result.configOptions);
      if (Array.isArray(result.availableCommands) && !runtime.sawCommandsUpdate)
        runtime.store.setAvailableCommands(result.availableCommands);
      return runtime.session;
    } finally {
      this.#updates.opened();
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

  async openSession(options: OpenSessionOptions): Promise<OpenedSession> {
    // Loaded on first use: a page that only starts new sessions does not ship the policy.
    const { openSession } = await import("./resume-policy.js");
    return await openSession(this, options);
  }

  async listSessions(params: ListSessionsRequest = {}): Promise<ListSessionsResponse> {
    return await this.request("session/list", params);
  }

  async *sessionPages(params: Omit<ListSessionsRequest, "cursor"> = {}): AsyncIterableIterator<ListSessionsResponse> {
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

  /** The connection refuses a method id that is not advertised, or not of type `agent` (auth-methods rule). */
  async login(methodId: string): Promise<void> {
    await this.request("auth/login", { methodId });
  }

  async logout(): Promise<void> {
    await this.request("auth/logout", {});
  }

  async extRequest<Result = unknown>(
    method: string,
    params?: unknown,
    options: { signal?: AbortSignal } = {},
  ): Promise<Result> {
    return await this.connection.requestExt<Result>(checkExtMethod(method), params, options);
  }

  async extNotification(method: string, params?: unknown): Promise<void> {
    await this.connection.notifyExt(checkExtMethod(method), params);
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}
