/**
 * One connection served by an agent: `initialize` and its ordering rules, the auth gate, dispatch
 * of every agent method to the live sessions, and clean-up when the connection ends. The typed
 * connection is the only door: it decodes what arrives (params and the results of our requests),
 * validates what we send, and checks every request against what `initialize` advertised.
 */
import {
  type AcpConnection,
  authRequiredError,
  createAgentHandlerTable,
  createAgentSideConnection,
  isExtensionMethod,
} from "@acp-kit/protocol";
import { type Logger, RequestError, type Transport } from "@acp-kit/protocol/jsonrpc";
import type { AgentCapabilities, InitializeRequest, InitializeResponse } from "@acp-kit/protocol/types";
import type { AgentDefinition } from "./agent-definition.js";
import { ConnectionSessions } from "./connection-sessions.js";
import { CapabilityNotSupportedError } from "./errors.js";
import type { IdGenerator } from "./ids.js";
import { outgoingCheckOf } from "./peer.js";
import { assertPromptSupported } from "./prompt-content.js";
import type { LiveSessionCounter } from "./session-limits.js";
import type { SessionServices } from "./session-runtime.js";
import type { SessionStore } from "./session-store.js";
import type { AgentSession, ClientContext } from "./session-types.js";
import { UpdateSender } from "./update-sender.js";
import { negotiateServedVersion, ServingTransport } from "./v1/index.js";
import { writeAhead } from "./write-ahead.js";

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

/** Methods about sessions: closed to an unauthenticated client while the agent advertises auth methods. */
function sessionScoped(method: string): boolean {
  return method.startsWith("session/") || method === "tool_call/cancel" || method === "terminal/cancel";
}

/** The handler table of each agent (see `AgentConnection.#handlersOf`). */
/** The handler table `AgentConnection` builds once per agent. */
type AgentHandlerTable = ReturnType<typeof createAgentHandlerTable<AgentConnection>>;
const tables = new WeakMap<ResolvedAgent, AgentHandlerTable>();

export class AgentConnection implements AgentConnectionHandle {
  readonly #agent: ResolvedAgent;
  readonly #conn: AcpConnection<"agent">;
  readonly #sender: UpdateSender;
  readonly #sessions: ConnectionSessions;
  #client: ClientContext | undefined;
  /** A request other than initialize was received: initialize may no longer be repeated. */
  #sawOtherRequest = false;
  #authenticated: boolean;
  /** Set when the connection was lost: its sessions' running turns are ending offline. */
  #lost: Promise<void> | undefined;
  /** Unhooks the store's writes from the transport (the connection ended). */
  readonly #detachStore: () => void;
  #closed: Promise<Error | undefined> | undefined;

  constructor(agent: ResolvedAgent, transport: Transport) {
    this.#agent = agent;
    const maxPendingHandlers = agent.definition.limits?.maxPendingHandlers;
    // The store's queued writes go out before each of this transport's writes.
    const served = writeAhead(transport, agent.store, {
      logger: agent.logger,
      // Updates that could not be stored were not sent: the turns that made them cannot go on.
      onCommitFailed: (error) => {
        for (const [sessionId, session] of this.#sessions.live)
          if (error.sessionIds === undefined || error.sessionIds.includes(sessionId)) session.failRun(error);
      },
    });
    this.#conn = createAgentSideConnection(
      new ServingTransport(served.transport, agent.logger),
      {
        logger: agent.logger,
        validateOutgoing: agent.validateOutgoing,
        // What the agent asks of a client that did not advertise it is refused locally, nothing sent.
        refuseUnadvertised: CapabilityNotSupportedError.of,
        ...(maxPendingHandlers === undefined ? {} : { maxPendingHandlers }),
      },
      AgentConnection.#handlersOf(agent).serving(this),
    );
    // Builders check synchronously through the connection, so they throw before anything is recorded or sent.
    this.#sender = new UpdateSender(this.#conn, agent.store, outgoingCheckOf(this.#conn), agent.logger);
    this.#sessions = new ConnectionSessions(agent, () => this.#services());
    this.#authenticated = (agent.definition.authMethods?.length ?? 0) === 0;
    this.#detachStore = served.detach;
    this.#conn.listen();
  }

  /** Made when first read: the work of the end runs without it (the table's close handler). */
  get closed(): Promise<Error | undefined> {
    this.#closed ??= this.#conn.closed.then(async (error) => {
      await this.#connectionLost();
      return error;
    });
    return this.#closed;
  }

  get client(): ClientContext | undefined {
    return this.#client;
  }

  get sessions(): ReadonlyMap<string, AgentSession> {
    return this.#sessions.live;
  }

  close(): Promise<void> {
    return this.#conn.close();
  }

  /** Disposes every live session; resolves once their turns ended. */
  #connectionLost(): Promise<void> {
    this.#lost ??= this.#sessions.disposeAll();
    return this.#lost;
  }

  // ---------------------------------------------------------------- handlers

  /**
   * The handlers of every connection of `agent`, built on its first connection: one table per
   * agent, each handler reaching its connection through the owner it gets (thousands of idle
   * connections keep no closure per method).
   */
  static #handlersOf(agent: ResolvedAgent): AgentHandlerTable {
    const known = tables.get(agent);
    if (known !== undefined) return known;
    const table = createAgentHandlerTable<AgentConnection>();
    const def = agent.definition;
    // Synchronous as the connection ends, before the rejections of our pending requests reach
    // their callers, so those read as cancelled rather than as failures.
    table.onClose((self) => {
      void self.#connectionLost();
      self.#detachStore();
    });
    table.onRequest("initialize", (self, params) => self.#initialize(params));
    // auth/login takes only an advertised method of type agent: the connection refused any other.
    table.onRequest("auth/login", (self, p) =>
      self.#handle("auth/login", async () => {
        // defineAgent requires `login` with auth methods; without them the connection answered -32601.
        const login = def.login;
        if (login === undefined) throw RequestError.methodNotFound("auth/login");
        await login.call(def, p.methodId, self.#clientContext());
        self.#authenticated = true;
        return {};
      }),
    );
    table.onRequest("auth/logout", (self) =>
      self.#handle("auth/logout", async () => {
        await def.logout?.(self.#clientContext());
        self.#authenticated = false;
        return {};
      }),
    );
    table.onRequest("session/new", (self, p) => self.#handle("session/new", () => self.#sessions.newSession(p)));
    table.onRequest("session/list", (self, p) => self.#handle("session/list", () => self.#sessions.listSessions(p)));
    table.onRequest("session/resume", (self, p) =>
      self.#handle("session/resume", () => self.#sessions.resumeSession(p)),
    );
    table.onRequest("session/close", (self, p) =>
      self.#handle("session/close", () => self.#sessions.closeSession(p.sessionId)),
    );
    table.onRequest("session/delete", (self, p) =>
      self.#handle("session/delete", () => self.#sessions.deleteSession(p.sessionId)),
    );
    table.onRequest("session/prompt", (self, p) =>
      self.#handle("session/prompt", () => {
        const session = self.#sessions.get(p.sessionId);
        assertPromptSupported(p.prompt, agent.capabilities);
        return session.prompt(p.prompt);
      }),
    );
    table.onRequest("session/set_config_option", (self, p) =>
      self.#handle("session/set_config_option", () => self.#sessions.setConfigOption(p)),
    );
    table.onRequest("tool_call/cancel", (self, p) =>
      self.#handle("tool_call/cancel", async () => {
        const call = self.#sessions.get(p.sessionId).findToolCall(p.toolCallId);
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
    table.onRequest("terminal/cancel", (self, p) =>
      self.#handle("terminal/cancel", async () => {
        const terminal = self.#sessions.get(p.sessionId).findTerminal(p.terminalId);
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
    table.onNotification("session/cancel", (self, p) => {
      // Notifications before initialize are dropped; cancelling an unknown session is a no-op.
      if (self.#client === undefined) return;
      void self.#sessions.live.get(p.sessionId)?.cancel();
    });
    for (const [method, handler] of Object.entries(def.extMethods ?? {})) {
      if (!isExtensionMethod(method)) continue; // defineAgent refused such names already
      table.onExtRequest(method, (self, params) => self.#handle(method, () => handler(params, self.#clientContext())));
    }
    for (const [method, handler] of Object.entries(def.extNotifications ?? {})) {
      if (!isExtensionMethod(method)) continue;
      table.onExtNotification(method, (self, params) => {
        const client = self.#client;
        if (client === undefined) return;
        return Promise.resolve()
          .then(() => handler(params, client))
          .catch((error: unknown) => agent.logger.error?.(`Handler for ${method} failed`, error));
      });
    }
    tables.set(agent, table);
    return table;
  }

  /**
   * Common path of every request but initialize: the ordering and auth gates, then the handler;
   * errors that are not `RequestError` become -32603 (logged, no details). The connection has
   * checked the capabilities and validates the result.
   */
  async #handle<T>(method: string, run: () => T | Promise<T>): Promise<T> {
    if (this.#client === undefined) throw RequestError.invalidRequest(`Invalid request: ${method} before initialize`);
    this.#sawOtherRequest = true;
    // session/close stays available so a client can always release what it holds.
    if (sessionScoped(method) && method !== "session/close" && !this.#authenticated) {
      throw authRequiredError(`Authentication required: call auth/login before ${method}`);
    }
    try {
      return await run();
    } catch (error) {
      if (error instanceof RequestError) throw error;
      this.#agent.logger.error?.(`Handler for ${method} failed`, error);
      throw RequestError.internalError();
    }
  }

  /** The client of a request that passed the ordering gate. */
  #clientContext(): ClientContext {
    const client = this.#client;
    if (client === undefined) throw RequestError.invalidRequest("Invalid request: before initialize");
    return client;
  }

  #services(): SessionServices {
    return {
      peer: this.#conn,
      sender: this.#sender,
      store: this.#agent.store,
      ids: this.#agent.ids,
      logger: this.#agent.logger,
      client: this.#clientContext(),
      cancelGracePeriodMs: this.#agent.cancelGracePeriodMs,
      promptHandler: this.#agent.definition.prompt,
    };
  }

  // ---------------------------------------------------------------- initialize

  /**
   * Synchronous unless the agent has an `initialize` hook, so a client that pipelines its first
   * requests behind `initialize` finds the connection initialized when they arrive. The params
   * are read by the connection (leniently for a newer client).
   */
  #initialize(params: InitializeRequest): InitializeResponse | Promise<InitializeResponse> {
    if (this.#sawOtherRequest)
      throw RequestError.invalidRequest("Invalid request: initialize may only be repeated before any other request");
    const client: ClientContext = {
      protocolVersion: negotiateServedVersion(params.protocolVersion),
      info: params.info,
      capabilities: params.capabilities ?? {},
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

  #completeInitialize(client: ClientContext): InitializeResponse {
    const result: InitializeResponse = {
      protocolVersion: client.protocolVersion,
      info: this.#agent.definition.info,
      capabilities: this.#agent.capabilities,
    };
    const authMethods = this.#agent.definition.authMethods;
    if (authMethods !== undefined && authMethods.length > 0) result.authMethods = [...authMethods];
    // The last successful initialize governs.
    this.#client = client;
    return result;
  }
}
