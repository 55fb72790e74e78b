/**
 * One connection served by an agent: `initialize` and its ordering rules, the auth gate,
 * capability gates, dispatch of every agent method to the live sessions, and clean-up when the
 * connection ends. Params arrive decoded by the typed connection; what we send is validated here.
 */
import {
  type AcpConnection,
  authRequiredError,
  createAgentSideConnection,
  decoders,
  SUPPORTED_PROTOCOL_VERSIONS,
  sessionNotFoundError,
} from "@acp-kit/protocol";
import { type Logger, RequestError, type Transport } from "@acp-kit/protocol/jsonrpc";
import type {
  AgentCapabilities,
  ClientCapabilities,
  CloseSessionResponse,
  InitializeRequest,
  ListSessionsRequest,
  ListSessionsResponse,
  McpServer,
  NewSessionRequest,
  NewSessionResponse,
  ResumeSessionRequest,
  ResumeSessionResponse,
  SessionUpdate,
  SetSessionConfigOptionResponse,
} from "@acp-kit/protocol/types";
import type { AgentDefinition } from "./agent-definition.js";
import { withConfigValue } from "./config-options.js";
import { InvalidOutgoingMessageError } from "./errors.js";
import type { IdGenerator } from "./ids.js";
import { strictOutgoingCheck } from "./outgoing-check.js";
import type { Peer } from "./peer.js";
import { assertPromptSupported } from "./prompt-content.js";
import type { LiveSessionCounter } from "./session-limits.js";
import { SessionRuntime, type SessionServices } from "./session-runtime.js";
import { InvalidCursorError, SessionBusyError, type SessionRecord, type SessionStore } from "./session-store.js";
import type { AgentSession, ClientContext } from "./session-types.js";
import { UpdateSender } from "./update-sender.js";
import { negotiateServedVersion, ServingTransport } from "./v1/index.js";

/** Settings resolved once by `defineAgent`. */
export interface ResolvedAgent {
  readonly definition: AgentDefinition;
  readonly capabilities: AgentCapabilities;
  readonly store: SessionStore;
  readonly logger: Logger;
  readonly ids: IdGenerator;
  readonly validateOutgoing: boolean;
  readonly cancelGracePeriodMs: number;
  readonly listPageSize: number;
  /**
   * Runs whose connection was lost and that are still ending, by session id (shared by every
   * connection of the agent): a resume waits for its session's, so it replays the recorded end.
   */
  readonly runsEndingOffline: Map<string, Promise<void>>;
  /** Live sessions of every connection of the agent, against the limits. */
  readonly liveSessions: LiveSessionCounter;
}

/** What `agent.serve(transport)` returns. */
export interface AgentConnectionHandle {
  /**
   * Settles once the connection ended (with the local reason when it failed) and the turns it was
   * running have ended, their end recorded in the session history (bounded by the grace period).
   */
  readonly closed: Promise<Error | undefined>;
  /** Ends the connection: running turns are cancelled, their end recorded in the history but not sent. */
  close(): Promise<void>;
  /** The client, once `initialize` succeeded. */
  readonly client: ClientContext | undefined;
  /** Sessions live on this connection. */
  readonly sessions: ReadonlyMap<string, AgentSession>;
}

function has(marker: unknown): boolean {
  return marker !== undefined && marker !== null;
}

export class AgentConnection implements AgentConnectionHandle {
  readonly #agent: ResolvedAgent;
  readonly #conn: AcpConnection<"agent">;
  readonly #peer: Peer;
  readonly #sender: UpdateSender;
  readonly #sessions = new Map<string, SessionRuntime>();
  #client: ClientContext | undefined;
  /** A request other than initialize was received: initialize may no longer be repeated. */
  #sawOtherRequest = false;
  #authenticated: boolean;
  /** Set when the connection was lost: its sessions' running turns are ending offline. */
  #lost: Promise<void> | undefined;
  readonly closed: Promise<Error | undefined>;

  constructor(agent: ResolvedAgent, transport: Transport) {
    this.#agent = agent;
    // Validation is done here, synchronously, so builders can throw before anything is sent.
    const maxPendingHandlers = agent.definition.limits?.maxPendingHandlers;
    this.#conn = createAgentSideConnection(new ServingTransport(transport, agent.logger), {
      logger: agent.logger,
      validateOutgoing: false,
      ...(maxPendingHandlers === undefined ? {} : { maxPendingHandlers }),
    });
    const conn = this.#conn;
    this.#peer = {
      request: (method, params, options) => conn.connection.request(method, params, options),
      notify: (method, params) => conn.connection.notify(method, params),
      get closed() {
        return conn.isClosed;
      },
    };
    this.#sender = new UpdateSender(
      this.#peer,
      agent.store,
      agent.validateOutgoing ? strictOutgoingCheck : undefined,
      agent.logger,
    );
    this.#authenticated = (agent.definition.authMethods?.length ?? 0) === 0;
    this.#register();
    // The abort fires synchronously as the connection ends, before the rejections of our pending
    // requests reach their callers, so those read as cancelled rather than as failures.
    this.#conn.signal.addEventListener("abort", () => void this.#connectionLost(), { once: true });
    this.closed = this.#conn.closed.then(async (error) => {
      await this.#connectionLost();
      return error;
    });
    this.#conn.listen();
  }

  get client(): ClientContext | undefined {
    return this.#client;
  }

  get sessions(): ReadonlyMap<string, AgentSession> {
    return this.#sessions;
  }

  close(): Promise<void> {
    return this.#conn.close();
  }

  /** Disposes every live session (see `SessionRuntime.dispose`); resolves once their turns ended. */
  #connectionLost(): Promise<void> {
    if (this.#lost !== undefined) return this.#lost;
    const registry = this.#agent.runsEndingOffline;
    const ending: Promise<void>[] = [];
    for (const [sessionId, session] of this.#sessions) {
      const ended = session.dispose();
      ending.push(ended);
      registry.set(sessionId, ended);
      this.#agent.liveSessions.removed();
      void ended.then(() => {
        if (registry.get(sessionId) === ended) registry.delete(sessionId);
        // Its end is recorded: from now on the store may forget it (retention bounds) or let another
        // process claim it.
        this.#release(sessionId);
      });
    }
    this.#sessions.clear();
    this.#lost = Promise.all(ending).then(() => undefined);
    return this.#lost;
  }

  // ---------------------------------------------------------------- registration

  #register(): void {
    const conn = this.#conn;
    const def = this.#agent.definition;
    conn.connection.onRequest("initialize", (params) => this.#initialize(params));
    conn.onRequest("auth/login", (p) =>
      this.#handle("auth/login", async () => {
        this.#requireAuthMethods("auth/login");
        const method = def.authMethods?.find((m) => m.methodId === p.methodId);
        if (method === undefined)
          throw RequestError.invalidParams(`Unknown auth method "${p.methodId}"`, { methodId: p.methodId });
        if ((method as { type: string }).type !== "agent") {
          throw RequestError.invalidParams(
            `Auth method "${p.methodId}" is not an agent-type method and cannot be used with auth/login`,
            { methodId: p.methodId },
          );
        }
        await def.login!(p.methodId, this.#client!);
        this.#authenticated = true;
        return {};
      }),
    );
    conn.onRequest("auth/logout", () =>
      this.#handle("auth/logout", async () => {
        this.#requireAuthMethods("auth/logout");
        await def.logout?.(this.#client!);
        this.#authenticated = false;
        return {};
      }),
    );
    conn.onRequest("session/new", (p) => this.#handle("session/new", () => this.#newSession(p)));
    conn.onRequest("session/list", (p) => this.#handle("session/list", () => this.#listSessions(p)));
    conn.onRequest("session/resume", (p) => this.#handle("session/resume", () => this.#resumeSession(p)));
    conn.onRequest("session/close", (p) => this.#handle("session/close", () => this.#closeSession(p.sessionId)));
    conn.onRequest("session/delete", (p) => this.#handle("session/delete", () => this.#deleteSession(p.sessionId)));
    conn.onRequest("session/prompt", (p) =>
      this.#handle("session/prompt", () => {
        const session = this.#live(p.sessionId);
        assertPromptSupported(p.prompt, this.#agent.capabilities);
        return session.prompt(p.prompt);
      }),
    );
    conn.onRequest("session/set_config_option", (p) =>
      this.#handle("session/set_config_option", () => this.#setConfigOption(p)),
    );
    conn.onRequest("tool_call/cancel", (p) =>
      this.#handle("tool_call/cancel", async () => {
        const call = this.#live(p.sessionId).findToolCall(p.toolCallId);
        const onCancel = call?.cancelHandler;
        if (call === undefined || onCancel === undefined) {
          throw RequestError.invalidParams(`Tool call "${p.toolCallId}" is unknown, final, or not cancellable`, {
            toolCallId: p.toolCallId,
          });
        }
        await onCancel();
        return {};
      }),
    );
    conn.onRequest("terminal/cancel", (p) =>
      this.#handle("terminal/cancel", async () => {
        const terminal = this.#live(p.sessionId).findTerminal(p.terminalId);
        const onCancel = terminal?.cancelHandler;
        if (terminal === undefined || onCancel === undefined) {
          throw RequestError.invalidParams(`Terminal "${p.terminalId}" is unknown, exited, or not cancellable`, {
            terminalId: p.terminalId,
          });
        }
        await onCancel();
        return {};
      }),
    );
    conn.onNotification("session/cancel", (p) => {
      // Notifications before initialize are dropped; cancelling an unknown session is a no-op.
      if (this.#client === undefined) return;
      void this.#sessions.get(p.sessionId)?.cancel();
    });
    for (const [method, handler] of Object.entries(def.extMethods ?? {})) {
      conn.onExtRequest(method as `_${string}`, (params) => this.#handle(method, () => handler(params, this.#client!)));
    }
    for (const [method, handler] of Object.entries(def.extNotifications ?? {})) {
      conn.onExtNotification(method as `_${string}`, (params) => {
        if (this.#client === undefined) return;
        return Promise.resolve()
          .then(() => handler(params, this.#client!))
          .catch((error: unknown) => this.#agent.logger.error?.(`Handler for ${method} failed`, error));
      });
    }
  }

  /**
   * Common path of every request but initialize: ordering and auth gates, then the handler;
   * the result is validated; errors that are not `RequestError` become -32603 (logged, no details).
   */
  async #handle<T>(method: string, run: () => T | Promise<T>): Promise<T> {
    if (this.#client === undefined) throw RequestError.invalidRequest(`Invalid request: ${method} before initialize`);
    this.#sawOtherRequest = true;
    const sessionScoped =
      method.startsWith("session/") || method === "tool_call/cancel" || method === "terminal/cancel";
    if (sessionScoped && !has(this.#agent.capabilities.session)) throw RequestError.methodNotFound(method);
    if (method === "session/delete" && !has((this.#agent.capabilities.session as { delete?: unknown }).delete)) {
      throw RequestError.methodNotFound(method);
    }
    // session/close stays available so a client can always release what it holds.
    if (sessionScoped && method !== "session/close" && !this.#authenticated) {
      throw authRequiredError(`Authentication required: call auth/login before ${method}`);
    }
    try {
      const result = await run();
      this.#check(method, "result", result);
      return result;
    } catch (error) {
      if (error instanceof RequestError) throw error;
      this.#agent.logger.error?.(`Handler for ${method} failed`, error);
      throw RequestError.internalError();
    }
  }

  #check(method: string, part: "params" | "result", value: unknown): void {
    if (!this.#agent.validateOutgoing) return;
    try {
      strictOutgoingCheck(method, part, value);
    } catch (error) {
      if (error instanceof InvalidOutgoingMessageError) this.#agent.logger.error?.(error.message, { path: error.path });
      throw error;
    }
  }

  #requireAuthMethods(method: string): void {
    if ((this.#agent.definition.authMethods?.length ?? 0) === 0) throw RequestError.methodNotFound(method);
  }

  #live(sessionId: string): SessionRuntime {
    const session = this.#sessions.get(sessionId);
    if (session === undefined) throw sessionNotFoundError(sessionId);
    return session;
  }

  #services(): SessionServices {
    return {
      peer: this.#peer,
      sender: this.#sender,
      store: this.#agent.store,
      ids: this.#agent.ids,
      logger: this.#agent.logger,
      client: this.#client!,
      cancelGracePeriodMs: this.#agent.cancelGracePeriodMs,
      promptHandler: this.#agent.definition.prompt,
    };
  }

  // ---------------------------------------------------------------- initialize

  /**
   * Synchronous unless the agent has an `initialize` hook, so a client that pipelines its first
   * requests behind `initialize` finds the connection initialized when they arrive.
   */
  #initialize(raw: unknown): unknown {
    if (this.#sawOtherRequest)
      throw RequestError.invalidRequest("Invalid request: initialize may only be repeated before any other request");
    const requested = (raw as { protocolVersion?: unknown } | null | undefined)?.protocolVersion;
    if (typeof requested !== "number" || !Number.isInteger(requested) || requested < 0 || requested > 0xffff) {
      throw RequestError.invalidParams("Invalid params for initialize: /protocolVersion: expected an integer version", {
        path: "/protocolVersion",
      });
    }
    const version = negotiateServedVersion(requested);
    const decoded = decodeInitialize(raw);
    let params: InitializeRequest;
    if (decoded.ok) params = decoded.value;
    else if (requested > Math.max(...SUPPORTED_PROTOCOL_VERSIONS)) {
      // A newer client may send fields we cannot read; answer with our version anyway.
      params = { protocolVersion: requested, info: undefined as never, capabilities: {} } as InitializeRequest;
    } else {
      throw RequestError.invalidParams(
        `Invalid params for initialize: ${decoded.error.path || "/"}: ${decoded.error.message}`,
        { path: decoded.error.path },
      );
    }
    const client: ClientContext = {
      protocolVersion: version,
      info: params.info,
      capabilities: (params.capabilities ?? {}) as ClientCapabilities,
    };
    const hook = this.#agent.definition.initialize;
    if (hook === undefined) return this.#completeInitialize(client);
    return Promise.resolve()
      .then(() => hook(params, client))
      .then(
        () => this.#completeInitialize(client),
        (error: unknown) => {
          if (error instanceof RequestError) throw error;
          this.#agent.logger.error?.("initialize handler failed", error);
          throw RequestError.internalError();
        },
      );
  }

  #completeInitialize(client: ClientContext): unknown {
    const result: Record<string, unknown> = {
      protocolVersion: client.protocolVersion,
      info: this.#agent.definition.info,
      capabilities: this.#agent.capabilities,
    };
    const authMethods = this.#agent.definition.authMethods;
    if (authMethods !== undefined && authMethods.length > 0) result.authMethods = authMethods;
    this.#check("initialize", "result", result);
    // The last successful initialize governs.
    this.#client = client;
    return result;
  }

  // ---------------------------------------------------------------- sessions

  #checkEnvironment(params: { additionalDirectories?: string[]; mcpServers?: McpServer[] }): void {
    const session = this.#agent.capabilities.session as Record<string, unknown>;
    if ((params.additionalDirectories?.length ?? 0) > 0 && !has(session.additionalDirectories)) {
      throw RequestError.invalidParams(
        "This agent does not support additionalDirectories (capabilities.session.additionalDirectories not advertised)",
        { path: "/additionalDirectories" },
      );
    }
    const mcp = (session.mcp ?? {}) as Record<string, unknown>;
    (params.mcpServers ?? []).forEach((server, index) => {
      const type = (server as { type?: unknown }).type;
      const supported = (type === "stdio" || type === "http") && has(mcp[type]);
      if (!supported) {
        throw RequestError.invalidParams(`Unsupported MCP server transport ${JSON.stringify(type)}`, {
          path: `/mcpServers/${index}/type`,
        });
      }
    });
  }

  /** The session went live on this connection (after `admit`). */
  #addLive(sessionId: string, session: SessionRuntime): void {
    if (!this.#sessions.has(sessionId)) this.#agent.liveSessions.added();
    this.#sessions.set(sessionId, session);
  }

  #removeLive(sessionId: string): void {
    if (this.#sessions.delete(sessionId)) this.#agent.liveSessions.removed();
  }

  async #newSession(params: NewSessionRequest): Promise<NewSessionResponse> {
    this.#agent.liveSessions.admit(this.#sessions.size);
    this.#checkEnvironment(params);
    const def = this.#agent.definition;
    const record: SessionRecord = {
      sessionId: this.#agent.ids("session"),
      cwd: params.cwd,
      additionalDirectories: [...(params.additionalDirectories ?? [])],
      configOptions: structuredClone(def.configOptions ?? []),
      availableCommands: structuredClone(def.availableCommands ?? []),
      updatedAt: new Date().toISOString(),
      data: {},
    };
    const session = new SessionRuntime(record, params.mcpServers ?? [], this.#services());
    const setup = (await def.newSession?.(session, params)) ?? {};
    if (setup.configOptions !== undefined) session.applyConfigOptionsSilently(setup.configOptions);
    if (setup.availableCommands !== undefined) session.applyAvailableCommandsSilently(setup.availableCommands);
    record.configOptions = [...session.configOptions];
    record.availableCommands = [...session.availableCommands];
    if (setup.title !== undefined) record.title = setup.title;
    if (setup.data !== undefined) Object.assign(session.data, setup.data);
    record.data = session.data;
    // Checked again and taken at once: other session/new calls may have finished meanwhile.
    this.#agent.liveSessions.admit(this.#sessions.size);
    this.#addLive(record.sessionId, session);
    try {
      await this.#agent.store.create(record);
      await this.#claim(record.sessionId);
    } catch (error) {
      this.#removeLive(record.sessionId);
      throw error;
    }
    const result: Record<string, unknown> = { sessionId: record.sessionId };
    if (record.configOptions.length > 0) result.configOptions = record.configOptions;
    if (record.availableCommands.length > 0) result.availableCommands = record.availableCommands;
    return result as unknown as NewSessionResponse;
  }

  async #listSessions(params: ListSessionsRequest): Promise<ListSessionsResponse> {
    try {
      const query: { cwd?: string; cursor?: string; limit: number } = { limit: this.#agent.listPageSize };
      if (params.cwd != null) query.cwd = params.cwd;
      if (params.cursor != null) query.cursor = params.cursor;
      const page = await this.#agent.store.list(query);
      return page.nextCursor === undefined
        ? { sessions: page.sessions }
        : { sessions: page.sessions, nextCursor: page.nextCursor };
    } catch (error) {
      if (error instanceof InvalidCursorError) throw RequestError.invalidParams(error.message, { path: "/cursor" });
      throw error;
    }
  }

  async #resumeSession(params: ResumeSessionRequest): Promise<ResumeSessionResponse> {
    // Everything that can be refused is checked before anything is sent.
    const replay = params.replayFrom ?? null;
    const replayType = (replay as { type?: unknown } | null)?.type;
    if (replay !== null && replayType !== "start") {
      throw RequestError.invalidParams(`Unsupported replay cursor ${JSON.stringify(replayType)}`, {
        path: "/replayFrom",
      });
    }
    // A turn cut off with its previous connection records its end first (bounded by the grace period).
    await this.#agent.runsEndingOffline.get(params.sessionId);
    const record = await this.#agent.store.get(params.sessionId);
    if (record === undefined) throw sessionNotFoundError(params.sessionId);
    if (params.cwd !== record.cwd) {
      throw RequestError.invalidParams(`Session ${params.sessionId} belongs to ${record.cwd}, not ${params.cwd}`, {
        path: "/cwd",
      });
    }
    this.#checkEnvironment(params);
    const additionalDirectories = [...(params.additionalDirectories ?? [])];
    let session = this.#sessions.get(params.sessionId);
    // Each opening of a session on a connection claims it once; closing or losing it releases.
    const claimed = session === undefined;
    if (claimed) {
      this.#agent.liveSessions.admit(this.#sessions.size);
      await this.#claim(params.sessionId);
    }
    try {
      if (session === undefined) {
        session = new SessionRuntime({ ...record, additionalDirectories }, params.mcpServers ?? [], this.#services());
      } else {
        session.additionalDirectories = additionalDirectories;
        session.mcpServers = [...(params.mcpServers ?? [])];
      }
      await this.#agent.definition.resumeSession?.(session, params);
      await this.#agent.store.update(params.sessionId, { additionalDirectories });
      if (!this.#sessions.has(params.sessionId)) {
        // Checked again: other openings may have finished while this one waited.
        this.#agent.liveSessions.admit(this.#sessions.size);
        this.#addLive(params.sessionId, session);
      }
      // Ids already in the history are never handed out again (custom generators included).
      const history = await this.#agent.store.history(params.sessionId);
      session.seedIds(history as SessionUpdate[]);
      if (replay !== null) {
        for (const update of history) session.replay(update as SessionUpdate);
      }
    } catch (error) {
      if (claimed) {
        if (this.#sessions.get(params.sessionId) === session) this.#removeLive(params.sessionId);
        this.#release(params.sessionId);
      }
      throw error;
    }
    session.replay(session.snapshot());
    const result: Record<string, unknown> = {};
    if (session.configOptions.length > 0) result.configOptions = [...session.configOptions];
    if (session.availableCommands.length > 0) result.availableCommands = [...session.availableCommands];
    return result as ResumeSessionResponse;
  }

  async #closeSession(sessionId: string): Promise<CloseSessionResponse> {
    const session = this.#sessions.get(sessionId);
    if (session === undefined) return {};
    // The hook runs before the session is marked closed, so it can still finalize background work.
    const hook = this.#agent.definition.closeSession;
    await session.close(hook === undefined ? undefined : (s) => hook.call(this.#agent.definition, s));
    this.#removeLive(sessionId);
    this.#release(sessionId);
    return {};
  }

  /** `SessionStore.claim`, with another process's hold answered as a clear request error. */
  async #claim(sessionId: string): Promise<void> {
    try {
      await this.#agent.store.claim?.(sessionId);
    } catch (error) {
      if (error instanceof SessionBusyError)
        throw RequestError.internalError(error.message, { sessionId, reason: "session_busy" });
      throw error;
    }
  }

  /** `SessionStore.release`; a failure is logged (the session is closed here either way). */
  #release(sessionId: string): void {
    try {
      const done = this.#agent.store.release?.(sessionId);
      if (done !== undefined)
        done.catch((error: unknown) =>
          this.#agent.logger.error?.("Session store release failed", { sessionId, error }),
        );
    } catch (error) {
      this.#agent.logger.error?.("Session store release failed", { sessionId, error });
    }
  }

  async #deleteSession(sessionId: string): Promise<CloseSessionResponse> {
    const session = this.#sessions.get(sessionId);
    if (session !== undefined) await this.#closeSession(sessionId);
    await this.#agent.store.delete(sessionId);
    await this.#agent.definition.deleteSession?.(sessionId);
    return {};
  }

  async #setConfigOption(params: {
    sessionId: string;
    configId: string;
    type: string;
    value: unknown;
  }): Promise<SetSessionConfigOptionResponse> {
    const session = this.#live(params.sessionId);
    const next = withConfigValue(session.configOptions, params.configId, params.type, params.value);
    const change = { configId: params.configId, value: params.value as string | boolean };
    const replaced = await this.#agent.definition.setConfigOption?.(session, change, next);
    const options = replaced ?? next;
    session.applyConfigOptions(options);
    return { configOptions: [...options] } as SetSessionConfigOptionResponse;
  }
}

type InitializeDecode = (
  value: unknown,
) => { ok: true; value: InitializeRequest } | { ok: false; error: { path: string; message: string } };

/** `decoders.initialize.params`: read directly because initialize is decoded leniently for newer versions. */
function decodeInitialize(raw: unknown): ReturnType<InitializeDecode> {
  const table = decoders as unknown as Record<string, { params: InitializeDecode } | undefined>;
  return table.initialize!.params(raw);
}
