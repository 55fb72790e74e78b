/** Value mappings of the client-side v1 adapter: initialize, MCP servers, permissions. */
import type {
  AgentCapabilities,
  AuthMethod,
  InitializeResponse,
  McpServer,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from "@acp-kit/protocol/types";
import {
  toolContentToV2,
  type InitializeResponse as V1InitializeResponse,
  type McpServer as V1McpServer,
  type RequestPermissionOutcome as V1PermissionOutcome,
  type RequestPermissionRequest as V1RequestPermissionRequest,
} from "@acp-kit/protocol/v1";

/** What v1 leaves out of `agentInfo` (optional there, required in v2). */
export const UNKNOWN_AGENT = { name: "unknown-v1-agent", version: "0" } as const;

const present = (flag: boolean | undefined): Record<string, never> | undefined => (flag ? {} : undefined);

/** v1 agent capabilities → v2 (booleans become marker objects; stdio MCP is always there in v1). */
export function agentCapabilitiesToV2(v1: V1InitializeResponse["agentCapabilities"]): AgentCapabilities {
  const prompt = v1?.promptCapabilities ?? {};
  const mcp = v1?.mcpCapabilities ?? {};
  const session = v1?.sessionCapabilities ?? {};
  const v2Session: Record<string, unknown> = {
    prompt: Object.fromEntries(
      (["image", "audio", "embeddedContext"] as const).flatMap((k) => (prompt[k] ? [[k, {}]] : [])),
    ),
    mcp: { stdio: {}, ...(present(mcp.http) ? { http: {} } : {}) },
  };
  if (session.additionalDirectories != null) v2Session.additionalDirectories = session.additionalDirectories;
  if (session.delete != null) v2Session.delete = session.delete;
  const capabilities: Record<string, unknown> = { session: v2Session };
  if (v1?.auth != null) capabilities.auth = {};
  return capabilities as AgentCapabilities;
}

/** v1 auth methods (`id`, agent type untagged) → v2 (`methodId`, always tagged). */
export function authMethodsToV2(methods: V1InitializeResponse["authMethods"]): AuthMethod[] {
  return (methods ?? []).map((method) => {
    const { id, type, ...rest } = method as unknown as { id: string; type?: string } & Record<string, unknown>;
    return { type: type ?? "agent", methodId: id, ...rest } as AuthMethod;
  });
}

/**
 * v1 `initialize` result → the v2 shape the typed connection decodes. Its `protocolVersion`
 * says 2 so that layer accepts it; the client reports the negotiated 1 itself.
 */
export function initializeResultToV2(v1: V1InitializeResponse): InitializeResponse {
  const result: Record<string, unknown> = {
    protocolVersion: 2,
    info: v1.agentInfo ?? UNKNOWN_AGENT,
    capabilities: agentCapabilitiesToV2(v1.agentCapabilities),
  };
  const authMethods = authMethodsToV2(v1.authMethods);
  if (authMethods.length > 0) result.authMethods = authMethods;
  if (v1._meta != null) result._meta = v1._meta;
  return result as unknown as InitializeResponse;
}

/** v2 MCP servers → v1 (stdio untagged with required `args`/`env`, http with required `headers`). */
export function mcpServersToV1(servers: readonly McpServer[] | null | undefined): V1McpServer[] {
  return (servers ?? []).flatMap((server): V1McpServer[] => {
    const s = server as { type: string; name: string } & Record<string, unknown>;
    if (s.type === "stdio") {
      const { type: _type, args, env, ...rest } = s;
      return [{ ...rest, args: (args as string[]) ?? [], env: (env as never[]) ?? [] } as unknown as V1McpServer];
    }
    if (s.type === "http") return [{ ...s, headers: (s.headers as never[]) ?? [] } as unknown as V1McpServer];
    return [];
  });
}

/** v1 permission request (a tool call update) → v2 (a title and a `tool_call` subject). */
export function permissionRequestToV2(v1: V1RequestPermissionRequest): RequestPermissionRequest {
  const { content, ...fields } = v1.toolCall as typeof v1.toolCall & { content?: unknown };
  const toolCall: Record<string, unknown> = { ...fields };
  if (Array.isArray(content)) toolCall.content = content.map(toolContentToV2);
  const request: Record<string, unknown> = {
    sessionId: v1.sessionId,
    title: v1.toolCall.title ?? "Permission requested",
    subject: { type: "tool_call", toolCall },
    options: v1.options,
  };
  if (v1._meta != null) request._meta = v1._meta;
  return request as unknown as RequestPermissionRequest;
}

/** v2 permission answer → v1 (an extension outcome v1 cannot carry reads as `cancelled`). */
export function permissionResponseToV1(v2: RequestPermissionResponse): { outcome: V1PermissionOutcome } {
  const outcome = v2.outcome as { outcome: string; optionId?: string };
  if (outcome.outcome === "selected" && typeof outcome.optionId === "string")
    return { outcome: { outcome: "selected", optionId: outcome.optionId } };
  return { outcome: { outcome: "cancelled" } };
}
