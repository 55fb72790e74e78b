/** Value mappings of the agent-side v1 projection: initialize, modes, permissions. */
import type {
  AgentCapabilities,
  ClientCapabilities,
  InitializeRequest,
  InitializeResponse,
  PermissionOption,
  RequestPermissionRequest,
  SessionConfigOption,
  SessionConfigSelectGroup,
  SessionConfigSelectOption,
} from "@acp-kit/protocol/types";
import {
  authMethodsToV1,
  configOptionToV1,
  type ProjectedToolCall,
  type SessionModeState,
  toolCallToV1,
  type AgentCapabilities as V1AgentCapabilities,
  type ClientCapabilities as V1ClientCapabilities,
  type SessionConfigOption as V1ConfigOption,
  type InitializeRequest as V1InitializeRequest,
  type InitializeResponse as V1InitializeResponse,
  type SessionCapabilities as V1SessionCapabilities,
} from "@acp-kit/protocol/v1";

/** What v1 leaves out of `clientInfo` (optional there, required in v2). */
export const UNKNOWN_CLIENT = { name: "unknown-v1-client", version: "0" } as const;

/** v1 `initialize` params → the v2 shape the agent reads (version 1 kept: the agent answers 1). */
export function initializeParamsToV2(v1: V1InitializeRequest): InitializeRequest {
  const capabilities: ClientCapabilities = {};
  const caps: V1ClientCapabilities = v1.clientCapabilities ?? {};
  if (caps.auth?.terminal) capabilities.auth = { terminal: {} };
  if (caps.elicitation != null) capabilities.elicitation = caps.elicitation;
  const params: InitializeRequest = {
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
  const sessionCapabilities: V1SessionCapabilities = { list: {}, resume: {}, close: {} };
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
    sessionCapabilities,
  };
  if (v2?.auth != null) capabilities.auth = {};
  return capabilities;
}

/** The v1 `initialize` answer for the agent's v2 one. */
export function initializeResultToV1(v2: InitializeResponse): V1InitializeResponse {
  const result: V1InitializeResponse = {
    protocolVersion: 1,
    agentInfo: v2.info,
    agentCapabilities: agentCapabilitiesToV1(v2.capabilities),
  };
  const authMethods = authMethodsToV1(v2.authMethods);
  if (authMethods.length > 0) result.authMethods = authMethods;
  if (v2._meta != null) result._meta = v2._meta;
  return result;
}

/** A config option of type `select`. */
export type SelectConfigOption = Extract<SessionConfigOption, { type: "select" }>;

/** The v2 option a v1 client sees as its session modes: the first `select` of category `mode`. */
export function modeOptionOf(options: readonly SessionConfigOption[]): SelectConfigOption | undefined {
  return options.find((o): o is SelectConfigOption => o.category === "mode" && o.type === "select");
}

export function modesOf(options: readonly SessionConfigOption[]): SessionModeState | undefined {
  const option = modeOptionOf(options);
  if (option === undefined) return undefined;
  const entries: readonly (SessionConfigSelectOption | SessionConfigSelectGroup)[] = option.options;
  const flat = entries.flatMap((o) => ("options" in o ? o.options : [o]));
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

/** A v1 permission request made from a v2 one (options as v2 gave them: v2 only widens their kinds). */
export interface ProjectedPermissionRequest {
  sessionId: string;
  toolCall: ProjectedToolCall;
  options: PermissionOption[];
  _meta?: Record<string, unknown> | null;
}

/** v2 permission request → v1 (the subject becomes the tool call; a command subject a synthesized one). */
export function permissionRequestToV1(v2: RequestPermissionRequest, fallbackId: string): ProjectedPermissionRequest {
  const subject = v2.subject;
  let toolCall: ProjectedToolCall;
  switch (subject?.type) {
    case "tool_call":
      toolCall = toolCallToV1(subject.toolCall);
      if (toolCall.title == null) toolCall.title = v2.title;
      break;
    case "command":
      toolCall = {
        toolCallId: subject.toolCallId ?? fallbackId,
        title: v2.title,
        kind: "execute",
        rawInput: { command: subject.command, cwd: subject.cwd },
      };
      break;
    default:
      toolCall = { toolCallId: fallbackId, title: v2.title };
  }
  const request: ProjectedPermissionRequest = { sessionId: v2.sessionId, toolCall, options: v2.options };
  if (v2._meta != null) request._meta = v2._meta;
  return request;
}
