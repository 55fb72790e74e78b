/** Elicitations (`elicitation/create`): forms and URLs, only in the modes the client advertised. */
import type { ClientCapabilities, ElicitationContentValue, ElicitationSchema } from "@acp-kit/protocol/types";
import { CapabilityNotSupportedError } from "./errors.js";

interface ElicitationCommon {
  /** What the user is asked. */
  message: string;
  /** Ties the elicitation to a tool call of the session. */
  toolCallId?: string;
  /** See `PermissionRequest.blocking`. Default true. */
  blocking?: boolean;
  _meta?: Record<string, unknown> | null;
}

export interface FormElicitation extends ElicitationCommon {
  mode: "form";
  /** A flat object schema; never ask for secrets in a form (use URL mode). */
  requestedSchema: ElicitationSchema;
}

export interface UrlElicitation extends ElicitationCommon {
  mode: "url";
  url: string;
  /** Defaults to a fresh id; pass it to `completeElicitation` when the out-of-band flow ends. */
  elicitationId?: string;
}

export type ElicitationRequest = FormElicitation | UrlElicitation;

export type ElicitationResult =
  | { action: "accept"; content?: Record<string, ElicitationContentValue>; elicitationId?: string }
  | { action: "decline"; elicitationId?: string }
  /** Also what an unknown action or a cancelled turn reads as. */
  | { action: "cancel"; elicitationId?: string };

/** Throws `CapabilityNotSupportedError` unless the client advertised `elicitation.<mode>`. */
export function assertElicitationMode(mode: string, capabilities: ClientCapabilities | undefined): void {
  const modes = capabilities?.elicitation as Record<string, unknown> | null | undefined;
  const marker = modes?.[mode];
  if (marker === undefined || marker === null || typeof marker !== "object") {
    throw new CapabilityNotSupportedError(
      "elicitation/create",
      `clientCapabilities.elicitation.${mode}`,
      `${mode}-mode elicitation`,
    );
  }
}

export function interpretElicitationResponse(response: unknown, elicitationId: string | undefined): ElicitationResult {
  const value = response as { action?: unknown; content?: unknown } | undefined;
  const withId = <T extends object>(r: T): T => (elicitationId === undefined ? r : { ...r, elicitationId });
  if (value?.action === "accept") {
    const content = value.content;
    return withId(
      content !== null && typeof content === "object" && !Array.isArray(content)
        ? { action: "accept" as const, content: content as Record<string, ElicitationContentValue> }
        : { action: "accept" as const },
    );
  }
  if (value?.action === "decline") return withId({ action: "decline" as const });
  return withId({ action: "cancel" as const });
}
