/** Value mappings of the agent-side v1 projection: initialize, MCP servers, modes, permissions. */
import type {
  AgentCapabilities,
  AuthMethod,
  McpServer,
  RequestPermissionRequest,
  SessionConfigOption,
} from "@acp-kit/protocol/types";
import {
  configOptionToV1,
  type SessionModeState,
  toolContentToV1,
  type AgentCapabilities as V1AgentCapabilities,
  type ClientCapabilities as V1ClientCapabilities,
  type SessionConfigOption as V1ConfigOption,
  type InitializeRequest as V1InitializeRequest,
  type McpServer as V1McpServer,
  type ToolCallUpdate as V1ToolCallUpdate,
} from "@acp-kit/protocol/v1";

/** What v1 leaves out of `clientInfo` (optional there, required in v2). */
export const UNKNOWN_CLIENT = { name: "unknown-v1-client", version: "0" } as const;

/** v1 `initialize` params → the v2 shape the agent reads (version 1 kept: the agent answers 1). */
export function initializeParamsToV2(v1: V1InitializeRequest): Record<string, unknown> {
  const capabilities: Record<string, unknown> = {};
  const caps: V1ClientCapabilities = v1.clientCapabilities ?? {};
  if (caps.auth?.terminal) capabilities.auth = { terminal: {} };
  if (caps.elicitation != null) capabilities.elicitation = caps.elicitation;
  const params: Record<string, unknown> = {
    protocolVersion: v1.protocolVersion,
    info: v1.clientInfo ?? UNKNOWN_CLIENT,
    capabilities,
  };
  if (v1._meta != null) params._meta = v1._meta;
  return params;
}

/** v2 agent capabilities → v1 (marker objects become booleans; `loadSession` from resume-with-replay). */
export function agentCapabilitiesToV1(v2: AgentCapabilities | undefined): V1AgentCapabilities {
  const session = v2?.session;
  if (session == null) return {};
  const prompt = session.prompt ?? {};
  const sessionCapabilities: Record<string, unknown> = { list: {}, resume: {}, close: {} };
  if (session.delete != null) sessionCapabilities.delete = session.delete;
  if (session.additionalDirectories != null) sessionCapabilities.additionalDirectories = session.additionalDirectories;
  const capabilities: V1AgentCapabilities = {
    loadSession: true,
    promptCapabilities: {
      image: prompt.image != null,
      audio: prompt.audio != null,
      embeddedContext: prompt.embeddedContext != null,
    },
    mcpCapabilities: { http: session.mcp?.http != null, sse: false },
    sessionCapabilities: sessionCapabilities as V1AgentCapabilities["sessionCapabilities"],
  };
  if (v2?.auth != null) capabilities.auth = {};
  return capabilities;
}

/** v2 auth methods → v1 (`methodId` → `id`; the agent type untagged). */
export function authMethodsToV1(methods: readonly AuthMethod[] | undefined): unknown[] {
  return (methods ?? []).flatMap((method) => {
    const { methodId, type, ...rest } = method as unknown as { methodId: string; type: string } & Record<
      string,
      unknown
    >;
    if (type === "agent") return [{ id: methodId, ...rest }];
    if (type === "terminal") return [{ id: methodId, type, ...rest }];
    return [];
  });
}

/** v1 MCP servers → v2 (stdio tagged; `sse` has no v2 transport and is left out). */
export function mcpServersToV2(servers: readonly V1McpServer[] | undefined): McpServer[] {
  return (servers ?? []).flatMap((server): McpServer[] => {
    const s = server as unknown as Record<string, unknown>;
    if (s.type === "http") return [s as unknown as McpServer];
    if (s.type === undefined) return [{ type: "stdio", ...s } as unknown as McpServer];
    return [];
  });
}

/** The v2 option a v1 client sees as its session modes: the first `select` of category `mode`. */
export function modeOptionOf(options: readonly SessionConfigOption[]): SessionConfigOption | undefined {
  return options.find((o) => o.category === "mode" && (o as { type: string }).type === "select");
}

export function modesOf(options: readonly SessionConfigOption[]): SessionModeState | undefined {
  const option = modeOptionOf(options) as
    | {
        currentValue: string;
        options: ({ value: string; name: string; description?: string | null } | { options: unknown[] })[];
      }
    | undefined;
  if (option === undefined) return undefined;
  const flat = option.options.flatMap((o) => ("options" in o ? (o.options as typeof option.options) : [o])) as {
    value: string;
    name: string;
    description?: string | null;
  }[];
  return {
    currentModeId: option.currentValue,
    availableModes: flat.map((o) =>
      o.description == null ? { id: o.value, name: o.name } : { id: o.value, name: o.name, description: o.description },
    ),
  };
}

export function configOptionsToV1(options: readonly SessionConfigOption[]): V1ConfigOption[] {
  return options.flatMap((o) => {
    const mapped = configOptionToV1(o);
    return mapped === undefined ? [] : [mapped];
  });
}

/** v2 tool call fields (a `tool_call_update`) → v1 tool call fields; content mapped, capabilities dropped. */
export function toolCallFieldsToV1(fields: Record<string, unknown>): Record<string, unknown> {
  const { sessionUpdate: _tag, capabilities: _capabilities, content, ...rest } = fields;
  const out: Record<string, unknown> = { ...rest };
  if (Array.isArray(content)) out.content = content.flatMap((c) => toolContentToV1(c) ?? []);
  else if (content === null) out.content = null;
  return out;
}

/** v2 permission request → v1 (the subject becomes the tool call; a command subject a synthesized one). */
export function permissionRequestToV1(v2: RequestPermissionRequest, fallbackId: string): Record<string, unknown> {
  const subject = v2.subject as { type?: string; toolCall?: Record<string, unknown> } & Record<string, unknown>;
  let toolCall: V1ToolCallUpdate;
  if (subject?.type === "tool_call" && subject.toolCall !== undefined) {
    toolCall = toolCallFieldsToV1(subject.toolCall) as unknown as V1ToolCallUpdate;
    if (toolCall.title == null) toolCall.title = v2.title;
  } else if (subject?.type === "command") {
    toolCall = {
      toolCallId: (subject.toolCallId as string | undefined) ?? fallbackId,
      title: v2.title,
      kind: "execute",
      rawInput: { command: subject.command, cwd: subject.cwd },
    };
  } else {
    toolCall = { toolCallId: fallbackId, title: v2.title };
  }
  const request: Record<string, unknown> = { sessionId: v2.sessionId, toolCall, options: v2.options };
  if (v2._meta != null) request._meta = v2._meta;
  return request;
}
