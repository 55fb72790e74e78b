/** Elicitations (`elicitation/create`): forms and URLs, only in the modes the client advertised. */
import { missingElicitationMode } from "@acp-kit/protocol";
import type {
  ClientCapabilities,
  CreateElicitationResponse,
  ElicitationContentValue,
  ElicitationSchema,
} from "@acp-kit/protocol/types";
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

/**
 * Throws `CapabilityNotSupportedError` unless the client advertised `elicitation.<mode>`
 * (the rule of `elicitation/create` in the protocol's capability table), before anything else
 * of the request is built.
 */
export function assertElicitationMode(mode: string, capabilities: ClientCapabilities | undefined): void {
  const missing = missingElicitationMode(mode, capabilities ?? {});
  if (missing !== undefined) throw CapabilityNotSupportedError.of(missing);
}

/** The result a decoded answer stands for (`undefined`: withdrawn, read as `cancel`). */
export function interpretElicitationResponse(
  response: CreateElicitationResponse | undefined,
  elicitationId: string | undefined,
): ElicitationResult {
  const withId = <T extends object>(r: T): T => (elicitationId === undefined ? r : { ...r, elicitationId });
  switch (response?.action) {
    case "accept": {
      const content = "content" in response ? response.content : undefined;
      return withId(
        content !== null && content !== undefined
          ? { action: "accept" as const, content }
          : { action: "accept" as const },
      );
    }
    case "decline":
      return withId({ action: "decline" as const });
    default:
      return withId({ action: "cancel" as const });
  }
}
