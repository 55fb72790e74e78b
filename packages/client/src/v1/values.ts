/** Value mappings of the client-side v1 adapter: initialize, permissions. */
import type { InitializeResponse, RequestPermissionRequest, RequestPermissionResponse } from "@acp-kit/protocol/types";
import {
  authMethodsToV2,
  toolCallToV2,
  type InitializeResponse as V1InitializeResponse,
  type RequestPermissionOutcome as V1PermissionOutcome,
  type RequestPermissionRequest as V1RequestPermissionRequest,
} from "@acp-kit/protocol/v1";
import { agentCapabilitiesToV2 } from "./capabilities.js";

/** What v1 leaves out of `agentInfo` (optional there, required in v2). */
export const UNKNOWN_AGENT = { name: "unknown-v1-agent", version: "0" } as const;

/**
 * v1 `initialize` result → the v2 shape the typed connection decodes. Its `protocolVersion`
 * says 2 so that layer accepts it; the client reports the negotiated 1 itself.
 */
export function initializeResultToV2(v1: V1InitializeResponse): InitializeResponse {
  const result: InitializeResponse = {
    protocolVersion: 2,
    info: v1.agentInfo ?? UNKNOWN_AGENT,
    capabilities: agentCapabilitiesToV2(v1.agentCapabilities),
  };
  const authMethods = authMethodsToV2(v1.authMethods);
  if (authMethods.length > 0) result.authMethods = authMethods;
  if (v1._meta != null) result._meta = v1._meta;
  return result;
}

/** v1 permission request (a tool call update) → v2 (a title and a `tool_call` subject). */
export function permissionRequestToV2(v1: V1RequestPermissionRequest): RequestPermissionRequest {
  // A permission's tool call is shown, not stored: content that says nothing is left out.
  const { content, ...fields } = toolCallToV2(v1.toolCall);
  const request: RequestPermissionRequest = {
    sessionId: v1.sessionId,
    title: v1.toolCall.title ?? "Permission requested",
    subject: { type: "tool_call", toolCall: content == null ? fields : { ...fields, content } },
    options: v1.options,
  };
  if (v1._meta != null) request._meta = v1._meta;
  return request;
}

/** v2 permission answer → v1 (an extension outcome v1 cannot carry reads as `cancelled`). */
export function permissionResponseToV1(v2: RequestPermissionResponse): { outcome: V1PermissionOutcome } {
  const { outcome } = v2;
  if (outcome.outcome === "selected") return { outcome: { outcome: "selected", optionId: outcome.optionId } };
  return { outcome: { outcome: "cancelled" } };
}
