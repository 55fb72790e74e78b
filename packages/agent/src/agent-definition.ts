/** What an agent author writes: the static description of the agent and its handlers. */
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import type {
  AgentCapabilities,
  AuthMethod,
  AvailableCommand,
  Implementation,
  InitializeRequest,
  NewSessionRequest,
  ResumeSessionRequest,
  SessionConfigOption,
} from "@acp-kit/protocol/types";
import type { IdGenerator } from "./ids.js";
import type { SessionLimits, SessionRetention } from "./session-limits.js";
import type { SessionStore } from "./session-store.js";
import type { AgentSession, ClientContext, WorkHandler } from "./session-types.js";

/** What `newSession` may set up for a new session (all optional). */
export interface SessionSetup {
  /** Config options of this session (default: the definition's `configOptions`). */
  configOptions?: SessionConfigOption[];
  /** Slash commands of this session (default: the definition's `availableCommands`). */
  availableCommands?: AvailableCommand[];
  title?: string;
  /** Agent-owned data kept in the store with the session. */
  data?: Record<string, unknown>;
}

export interface ConfigChange {
  configId: string;
  value: string | boolean;
}

/**
 * What {@link defineAgent} needs: `info` and a `prompt` handler; everything else is optional
 * (capabilities, auth, a session store, config options, session hooks, extension methods).
 *
 * @example
 * ```ts
 * import { type AgentDefinition, defineAgent, InMemorySessionStore } from "@acp-kit/agent";
 *
 * const definition: AgentDefinition = {
 *   info: { name: "planner", title: "Planner", version: "0.1.0" },
 *   capabilities: { session: { prompt: { image: {} } } },
 *   sessionStore: new InMemorySessionStore(), // or one that persists
 *   configOptions: [
 *     { type: "select", configId: "mode", name: "Mode", currentValue: "ask",
 *       options: [{ value: "ask", name: "Ask" }, { value: "auto", name: "Auto" }] },
 *   ],
 *   async prompt(turn) {
 *     const decision = await turn.requestPermission({ title: "Edit src/app.ts?" });
 *     if (decision.granted) await turn.say("Edited.");
 *     return "end_turn";
 *   },
 * };
 * export const agent = defineAgent(definition);
 * ```
 */
export interface AgentDefinition {
  /** Name, version and optional display title sent in the `initialize` response. */
  info: Implementation;
  /**
   * Capabilities, as protocol objects (`{}` = supported, omitted = not). Defaults to
   * `{ session: {} }`: the baseline session methods, text and resource-link prompts.
   */
  capabilities?: AgentCapabilities;
  /** Non-empty: the client must `auth/login` before using sessions; `login` is then required. */
  authMethods?: AuthMethod[];
  /** Where sessions and their history live. Default: a new `InMemorySessionStore`. */
  sessionStore?: SessionStore;
  logger?: Logger;
  /** Strict validation of everything sent. Default: on unless `NODE_ENV === "production"`. */
  validateOutgoing?: boolean;
  /** How long a cancelled turn's handler may keep running before its idle is sent anyway. Default 10000 ms. */
  cancelGracePeriodMs?: number;
  /** Page size of `session/list`. Default 50. */
  listPageSize?: number;
  /**
   * Bounds on what a client can make the agent hold (docs/limits.md): live sessions per
   * connection and per agent, closed sessions the default in-memory store keeps (count, TTL),
   * and handlers in flight per connection (`maxPendingHandlers`, default 1024).
   */
  limits?: SessionLimits & SessionRetention & { maxPendingHandlers?: number };
  /** Id generator (sessions, messages, tool calls, …). Default: prefixed random UUIDs. */
  ids?: IdGenerator;
  /** Config options every new session starts with. */
  configOptions?: SessionConfigOption[];
  /** Slash commands every new session starts with. */
  availableCommands?: AvailableCommand[];

  /** Handles a prompt turn. Return the stop reason (default `end_turn`); throw to end it `error`. */
  prompt: WorkHandler;
  /** Inspects the client's `initialize`; throw a `RequestError` to refuse it. */
  initialize?(params: InitializeRequest, client: ClientContext): void | Promise<void>;
  /** Sets up a new session (MCP connections, defaults). Throw a `RequestError` to refuse it. */
  newSession?(session: AgentSession, params: NewSessionRequest): SessionSetup | void | Promise<SessionSetup | void>;
  /** Restores a session on `session/resume`, before any replay. */
  resumeSession?(session: AgentSession, params: ResumeSessionRequest): void | Promise<void>;
  /**
   * Runs on `session/close` (or deletion) after the session's foreground work was cancelled and
   * before the session is marked closed: it can still report, e.g. finalize background tool calls
   * and terminals. Background tool calls still live afterwards are reported `cancelled`.
   */
  closeSession?(session: AgentSession): void | Promise<void>;
  /** Runs after a session was removed from the store by `session/delete`. */
  deleteSession?(sessionId: string): void | Promise<void>;
  /**
   * Reacts to a config change the engine validated; may return the full new option list (e.g.
   * when other options depend on it). Throw a `RequestError` to refuse it.
   */
  setConfigOption?(
    session: AgentSession,
    change: ConfigChange,
    next: SessionConfigOption[],
  ): SessionConfigOption[] | void | Promise<SessionConfigOption[] | void>;
  /** Required with `authMethods`: authenticate with an `agent`-type method; throw to refuse. */
  login?(methodId: string, client: ClientContext): void | Promise<void>;
  logout?(client: ClientContext): void | Promise<void>;
  /** Extension requests (`_`-prefixed names). Unknown ones are answered -32601. */
  extMethods?: Record<`_${string}`, (params: unknown, client: ClientContext) => unknown>;
  /** Extension notifications (`_`-prefixed names). Unknown ones are ignored. */
  extNotifications?: Record<`_${string}`, (params: unknown, client: ClientContext) => void | Promise<void>>;
}
