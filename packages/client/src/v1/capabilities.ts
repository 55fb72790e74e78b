/**
 * What a v1 agent advertised, read for the client's v2 model. v1 optional methods each have
 * their own marker (`sessionCapabilities.list`, `auth.logout`, ...); v2's `session` marker
 * covers them all. So the v2 view keeps what v2 can say (`agentCapabilitiesToV2`), and the
 * methods v1 gates on a marker of its own are checked here (`missingV1Capability`): the client
 * refuses them locally, as it refuses whatever a v2 agent did not advertise, instead of sending
 * a request the agent answers -32601.
 */
import type { MissingCapability } from "@acp-kit/protocol";
import type { AgentCapabilities, SessionCapabilities } from "@acp-kit/protocol/types";
import type { AgentCapabilities as V1AgentCapabilities } from "@acp-kit/protocol/v1";

function withMeta<T extends object>(value: T, meta: { [k: string]: unknown } | null | undefined): T {
  return meta == null ? value : { ...value, _meta: meta };
}

/**
 * v1 agent capabilities → v2. `session` is always there: every v1 agent serves `session/new`,
 * `session/prompt` and `session/cancel`. Prompt content and MCP transports map marker for
 * marker (stdio is always there in v1); `delete` and `additionalDirectories` are carried over;
 * each object's `_meta` too. `loadSession`, `sessionCapabilities.list|resume|close`,
 * `auth.logout` and `mcpCapabilities.sse` have no v2 marker: they stay in the `initialize`
 * answer as received (`initializeResponse`), and `missingV1Capability` enforces them.
 */
export function agentCapabilitiesToV2(v1: V1AgentCapabilities | undefined): AgentCapabilities {
  const prompt = v1?.promptCapabilities;
  const mcp = v1?.mcpCapabilities;
  const session = v1?.sessionCapabilities;
  const v2Session: SessionCapabilities = {
    prompt: withMeta(
      {
        ...(prompt?.image ? { image: {} } : {}),
        ...(prompt?.audio ? { audio: {} } : {}),
        ...(prompt?.embeddedContext ? { embeddedContext: {} } : {}),
      },
      prompt?._meta,
    ),
    mcp: withMeta({ stdio: {}, ...(mcp?.http ? { http: {} } : {}) }, mcp?._meta),
  };
  if (session?.additionalDirectories != null) v2Session.additionalDirectories = session.additionalDirectories;
  if (session?.delete != null) v2Session.delete = session.delete;
  if (session?._meta != null) v2Session._meta = session._meta;
  const capabilities: AgentCapabilities = { session: v2Session };
  // v2's `auth` marker carries extensions only; v1's `auth.logout` is checked below.
  if (v1?.auth != null) capabilities.auth = withMeta({}, v1.auth._meta);
  if (v1?._meta != null) capabilities._meta = v1._meta;
  return capabilities;
}

function missing(method: string, requirement: string, detail?: string): MissingCapability {
  return { method, side: "agent", requirement, ...(detail === undefined ? {} : { detail }) };
}

/**
 * Why a v1 agent with these capabilities does not serve the client's v2 `method`, or
 * `undefined` when it does (or when v1 gates it on nothing of its own: the v2 rules apply).
 */
export function missingV1Capability(
  method: string,
  capabilities: V1AgentCapabilities | undefined,
): MissingCapability | undefined {
  switch (method) {
    case "session/list":
      return capabilities?.sessionCapabilities?.list == null
        ? missing(
            method,
            "agentCapabilities.sessionCapabilities.list",
            "a v1 agent lists sessions only when it says so",
          )
        : undefined;
    case "auth/logout":
      return capabilities?.auth?.logout == null
        ? missing(method, "agentCapabilities.auth.logout", "a v1 agent logs out only when it says so")
        : undefined;
    default:
      return undefined;
  }
}
