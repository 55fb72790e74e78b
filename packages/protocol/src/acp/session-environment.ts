/**
 * What `session/new` and `session/resume` may ask for: `additionalDirectories` only with
 * `session.additionalDirectories`, each MCP server only over a transport the agent advertises
 * under `session.mcp` (`stdio`, `http`; any other transport never).
 */
import type { McpServer, SessionCapabilities } from "../generated/types.js";
import { isAdvertised } from "./advertised.js";
import type { MissingCapability } from "./missing-capability.js";

/** The part of the params that sets up a session's environment. */
export interface SessionEnvironment {
  readonly additionalDirectories?: readonly string[] | null;
  readonly mcpServers?: readonly McpServer[] | null;
}

function mcpAdvertised(server: McpServer, session: SessionCapabilities): boolean {
  switch (server.type) {
    case "stdio":
      return isAdvertised(session.mcp?.stdio);
    case "http":
      return isAdvertised(session.mcp?.http);
    default:
      return false;
  }
}

/** The first part of `params` the agent's session capabilities do not cover. */
export function missingEnvironment(
  method: string,
  params: SessionEnvironment,
  session: SessionCapabilities,
): MissingCapability | undefined {
  if ((params.additionalDirectories?.length ?? 0) > 0 && !isAdvertised(session.additionalDirectories)) {
    return {
      method,
      side: "agent",
      requirement: "agentCapabilities.session.additionalDirectories",
      capability: "session.additionalDirectories",
      path: "/additionalDirectories",
    };
  }
  for (const [index, server] of (params.mcpServers ?? []).entries()) {
    if (mcpAdvertised(server, session)) continue;
    const type = String(server.type);
    return {
      method,
      side: "agent",
      requirement: `agentCapabilities.session.mcp.${type}`,
      capability: `session.mcp.${type}`,
      path: `/mcpServers/${index}/type`,
      detail: `mcpServers[${index}] ${JSON.stringify(server.name)}`,
    };
  }
  return undefined;
}
