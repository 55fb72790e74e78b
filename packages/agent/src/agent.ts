/**
 * `defineAgent(definition)`: checks the definition once and returns an agent that can serve any
 * number of connections, each with its own initialize state and live sessions, all sharing the
 * agent's session store.
 */
import { defaultValidateOutgoing } from "@acp-kit/protocol";
import type { Transport } from "@acp-kit/protocol/jsonrpc";
import type { AgentCapabilities } from "@acp-kit/protocol/types";
import { AgentConnection, type AgentConnectionHandle, type ResolvedAgent } from "./agent-connection.js";
import type { AgentDefinition } from "./agent-definition.js";
import { AgentDefinitionError } from "./errors.js";
import { randomIds } from "./ids.js";
import { InMemorySessionStore } from "./in-memory-session-store.js";
import { LiveSessionCounter } from "./session-limits.js";

/**
 * An agent made by {@link defineAgent}: serve it on as many connections as you like, one
 * `serve(transport)` call per connection. Sessions live in the definition's `sessionStore`, so
 * a client that reconnects (on any connection) can resume them.
 *
 * @example
 * ```ts
 * import { createAcpWebSocketServer } from "@acp-kit/transport-ws/node";
 *
 * const server = await createAcpWebSocketServer({
 *   port: 8080,
 *   onConnection: (transport) => {
 *     const handle = agent.serve(transport);
 *     void handle.closed.then((error) => error && console.error("connection ended:", error.message));
 *   },
 * });
 * ```
 */
export interface Agent {
  /** The definition this agent was made from. */
  readonly definition: AgentDefinition;
  /** The capabilities sent in `initialize` (the definition's, or the `{ session: {} }` default). */
  readonly capabilities: AgentCapabilities;
  /** Serves one connection (call once per transport). Starts reading at once. */
  serve(transport: Transport): AgentConnectionHandle;
}

const DEFAULT_CAPABILITIES: AgentCapabilities = { session: {} };

/**
 * Defines an ACP v2 agent. You write what a turn does in `prompt(turn)`; the turn engine does
 * what the protocol requires (inserting and echoing the user message, the `messageId` answer,
 * `running` / `requires_action` / one `idle` with the stop reason, cancellation, queueing,
 * resume with replay, validation of what is sent). Throws `AgentDefinitionError` for a
 * definition that cannot work (no `prompt`, no `info.name` / `info.version`, ...).
 *
 * @example
 * ```ts
 * import { defineAgent } from "@acp-kit/agent";
 * import { stdioTransport } from "@acp-kit/transport-stdio";
 *
 * const agent = defineAgent({
 *   info: { name: "shout", version: "1.0.0" },
 *   async prompt(turn) {
 *     await turn.say(turn.text.toUpperCase()); // one whole agent_message
 *     return "end_turn";
 *   },
 * });
 * agent.serve(stdioTransport());
 * ```
 */
export function defineAgent(definition: AgentDefinition): Agent {
  if (typeof definition.prompt !== "function")
    throw new AgentDefinitionError("defineAgent: `prompt` handler is required");
  if (typeof definition.info?.name !== "string" || typeof definition.info?.version !== "string") {
    throw new AgentDefinitionError("defineAgent: `info` needs a `name` and a `version`");
  }
  const authMethods = definition.authMethods ?? [];
  if (authMethods.length > 0 && typeof definition.login !== "function") {
    throw new AgentDefinitionError(
      "defineAgent: agents that advertise authMethods must implement `login` (and may implement `logout`)",
    );
  }
  const ids = new Set<string>();
  for (const method of authMethods) {
    if (ids.has(method.methodId))
      throw new AgentDefinitionError(`defineAgent: duplicate auth methodId "${method.methodId}"`);
    ids.add(method.methodId);
  }
  for (const name of [...Object.keys(definition.extMethods ?? {}), ...Object.keys(definition.extNotifications ?? {})]) {
    if (!name.startsWith("_"))
      throw new AgentDefinitionError(`defineAgent: extension method names start with "_": ${name}`);
  }
  const grace = definition.cancelGracePeriodMs ?? 10_000;
  if (!(grace >= 0)) throw new AgentDefinitionError("defineAgent: cancelGracePeriodMs must be >= 0");
  const pageSize = definition.listPageSize ?? 50;
  if (!Number.isInteger(pageSize) || pageSize < 1)
    throw new AgentDefinitionError("defineAgent: listPageSize must be a positive integer");

  const resolved: ResolvedAgent = {
    definition,
    capabilities: definition.capabilities ?? DEFAULT_CAPABILITIES,
    store: definition.sessionStore ?? new InMemorySessionStore({ retention: definition.limits ?? {} }),
    liveSessions: new LiveSessionCounter(definition.limits),
    logger: definition.logger ?? {},
    ids: definition.ids ?? randomIds,
    validateOutgoing: definition.validateOutgoing ?? defaultValidateOutgoing(),
    cancelGracePeriodMs: grace,
    listPageSize: pageSize,
    runsEndingOffline: new Map(),
  };
  return {
    definition,
    capabilities: resolved.capabilities,
    serve: (transport) => new AgentConnection(resolved, transport),
  };
}
