/** Value mappings of the agent-side v1 projection: initialize, modes, permissions. */
import type {
  AgentCapabilities,
  ClientCapabilities,
  InitializeRequest,
  InitializeResponse,
  RequestPermissionRequest,
  SessionConfigOption,
  SessionConfigSelectGroup,
  SessionConfigSelectOption,
} from "@acp-kit/protocol/types";
import {
  authMethodsToV1,
  configOptionToV1,
  permissionOptionKindToV1,
  type SessionModeState,
  toolCallToV1,
  type AgentCapabilities as V1AgentCapabilities,
  type ClientCapabilities as V1ClientCapabilities,
  type SessionConfigOption as V1ConfigOption,
  type InitializeRequest as V1InitializeRequest,
  type InitializeResponse as V1InitializeResponse,
  type RequestPermissionRequest as V1RequestPermissionRequest,
  type SessionCapabilities as V1SessionCapabilities,
  type ToolCallContent as V1ToolCallContent,
  type ToolCallUpdate as V1ToolCallUpdate,
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

/** A v1 permission request made from a v2 one, and the tool call to announce first when the client does not hold it. */
export interface ProjectedPermission {
  request: V1RequestPermissionRequest;
  announce?: V1ToolCallUpdate & { title: string };
  /** The question was added to the content of a call the client keeps: it goes once answered. */
  shown: boolean;
}

/** The permission's own words, shown as a text block of the tool call while it is asked. */
function questionBlock(v2: RequestPermissionRequest): V1ToolCallContent {
  const text = v2.description == null || v2.description === "" ? v2.title : `${v2.title}\n\n${v2.description}`;
  return { type: "content", content: { type: "text", text } };
}

/**
 * v2 permission request → v1. In v1 the request's `toolCall` updates the tool call, so it never
 * carries the permission's title (that would rename the call): a `tool_call` subject is its
 * own fields, and the question (title and description) is added to the call's content while
 * it is asked. A `command` subject or none is a tool call made for the permission: an
 * `execute` call titled with the question. `held` is the content the client holds for a
 * call, undefined for a call it has not seen (announced first, titled with its name or the
 * question when it has no title of its own).
 */
export function permissionRequestToV1(
  v2: RequestPermissionRequest,
  fallbackId: string,
  held: (toolCallId: string) => V1ToolCallContent[] | undefined,
): ProjectedPermission {
  const subject = v2.subject;
  const question = questionBlock(v2);
  let toolCall: V1ToolCallUpdate;
  let announce: (V1ToolCallUpdate & { title: string }) | undefined;
  let shown = false;
  if (subject?.type === "tool_call" && "toolCall" in subject) {
    const own = toolCallToV1(subject.toolCall);
    const content = own.content ?? held(own.toolCallId);
    if (content === undefined) announce = { ...own, title: own.title ?? subject.toolCall.name ?? v2.title };
    toolCall = { ...own, content: [...(content ?? []), question] };
    shown = true;
  } else {
    const command = subject?.type === "command" && "command" in subject ? subject : undefined;
    const toolCallId = command?.toolCallId ?? fallbackId;
    const known = held(toolCallId);
    if (known !== undefined) {
      toolCall = { toolCallId, content: [...known, question] };
      shown = true;
    } else {
      toolCall = {
        toolCallId,
        title: v2.title,
        kind: command === undefined ? "other" : "execute",
        content: [question],
      };
      if (command !== undefined) toolCall.rawInput = { command: command.command, cwd: command.cwd };
      announce = { ...toolCall, title: v2.title };
    }
  }
  const request: V1RequestPermissionRequest = {
    sessionId: v2.sessionId,
    toolCall,
    options: v2.options.map((o) => ({ ...o, kind: permissionOptionKindToV1(o.kind) })),
  };
  if (v2._meta != null) request._meta = v2._meta;
  return { request, shown, ...(announce === undefined ? {} : { announce }) };
}
