/**
 * JSON-RPC 2.0 message shapes and the classification of inbound values. Which request ids are
 * accepted is a `RequestIdRule` the connection is given (a protocol on top may narrow it).
 */
import { type ErrorObject, RequestError } from "./errors.js";
import { isRecord } from "./records.js";

/** A request id: a string or a number. `null` only ever appears in error responses. */
export type JsonRpcId = string | number;

export interface JsonRpcRequest<Params = unknown> {
  jsonrpc: "2.0";
  id: JsonRpcId;
  method: string;
  params?: Params;
}

export interface JsonRpcNotification<Params = unknown> {
  jsonrpc: "2.0";
  method: string;
  params?: Params;
}

export interface JsonRpcSuccessResponse<Result = unknown> {
  jsonrpc: "2.0";
  id: JsonRpcId;
  result: Result;
}

export interface JsonRpcErrorResponse {
  jsonrpc: "2.0";
  /** `null` when the id of the offending request could not be read. */
  id: JsonRpcId | null;
  error: ErrorObject;
}

export type JsonRpcResponse<Result = unknown> = JsonRpcSuccessResponse<Result> | JsonRpcErrorResponse;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;
/** What one inbound payload may hold: a message, or a batch of them (received, never sent). */
export type JsonRpcPayload = JsonRpcMessage | JsonRpcMessage[];

/** Which request ids a connection accepts, and how it words a refusal. */
export interface RequestIdRule {
  accepts(value: unknown): value is JsonRpcId;
  /** The -32600 message for an id `accepts` refused. */
  refusal(value: unknown): string;
}

/** The -32600 message for an integer id beyond 2^53 (any rule refuses those). */
export const UNSAFE_INTEGER_ID_REFUSAL =
  "Invalid request: integer id beyond 2^53 cannot be echoed exactly; use a string id";

/** An integer `JSON.parse` may already have rounded: it could not be echoed exactly. */
export function isUnsafeInteger(value: unknown): boolean {
  return typeof value === "number" && Number.isInteger(value) && !Number.isSafeInteger(value);
}

/**
 * JSON-RPC 2.0's request ids as this core takes them: strings and numbers, except integers
 * beyond 2^53 (rounded by `JSON.parse`, so not echoable) and `null` (which a response uses for
 * "id unreadable", so a request with it could never be answered unambiguously).
 */
export const JSON_RPC_REQUEST_IDS: RequestIdRule = {
  accepts: (value): value is JsonRpcId =>
    typeof value === "string" || (typeof value === "number" && Number.isFinite(value) && !isUnsafeInteger(value)),
  refusal: (value) =>
    isUnsafeInteger(value) ? UNSAFE_INTEGER_ID_REFUSAL : "Invalid request: id must be a string or a number",
};

/** One inbound value, sorted into what the connection must do with it. */
export type InboundEntry =
  | { kind: "request"; message: JsonRpcRequest }
  | { kind: "notification"; message: JsonRpcNotification }
  | { kind: "response"; message: JsonRpcResponse }
  /** Not a valid request or notification: answer with `error` (`id` is `null` unless it was readable). */
  | { kind: "invalid"; id: JsonRpcId | null; error: RequestError }
  /** Looks like a response but is malformed: never answered (answering responses can loop). */
  | { kind: "invalid-response"; id: JsonRpcId | null; reason: string };

type Fields = Record<string, unknown>;

// Each guard checks one member; `if (!guard(value)) return ...` narrows `value` member by
// member until it is a message type (no cast needed, nothing checked twice).
function isVersion2(value: Fields): value is Fields & { jsonrpc: "2.0" } {
  return value.jsonrpc === "2.0";
}
function hasMethod(value: Fields): value is Fields & { method: string } {
  return typeof value.method === "string";
}
/** `params`, when present, is structured (an object or an array). */
function hasStructuredParams(value: Fields): value is Fields & { params?: object } {
  const params = value.params;
  return params === undefined || (typeof params === "object" && params !== null);
}
function hasAcceptedId(value: Fields, ids: RequestIdRule): value is Fields & { id: JsonRpcId } {
  return ids.accepts(value.id);
}
function hasResult(value: Fields): value is Fields & { result: unknown } {
  return "result" in value;
}
function hasErrorObject(value: Fields): value is Fields & { error: ErrorObject } {
  const error = value.error;
  return isRecord(error) && Number.isInteger(error.code) && typeof error.message === "string";
}
function hasResponseId(value: Fields, ids: RequestIdRule): value is Fields & { id: JsonRpcId | null } {
  return value.id === null || ids.accepts(value.id);
}

const invalid = (message: string, id: JsonRpcId | null = null): InboundEntry => ({
  kind: "invalid",
  id,
  error: RequestError.invalidRequest(message),
});

/** Sorts one parsed JSON value (a whole payload or one batch entry). Never throws. */
export function classifyInbound(value: unknown, ids: RequestIdRule = JSON_RPC_REQUEST_IDS): InboundEntry {
  if (!isRecord(value)) return invalid("Invalid request: expected a JSON-RPC message object");
  if (!isVersion2(value)) return invalid('Invalid request: "jsonrpc" must be "2.0"');

  if ("method" in value) {
    if ("id" in value && !hasAcceptedId(value, ids)) return invalid(ids.refusal(value.id));
    const id = hasAcceptedId(value, ids) ? value.id : null;
    if (!hasMethod(value)) return invalid("Invalid request: method must be a string", id);
    if (!hasStructuredParams(value)) return invalid("Invalid request: params must be an object or an array", id);
    return hasAcceptedId(value, ids) ? { kind: "request", message: value } : { kind: "notification", message: value };
  }

  if ("id" in value && ("result" in value || "error" in value)) {
    if (!hasResponseId(value, ids))
      return { kind: "invalid-response", id: null, reason: "response id must be a request id or null" };
    const readableId = value.id;
    if ("result" in value && "error" in value)
      return { kind: "invalid-response", id: readableId, reason: "response has both result and error" };
    if (hasResult(value)) {
      // The id passed `hasResponseId`: refused here means it is `null`.
      return hasAcceptedId(value, ids)
        ? { kind: "response", message: value }
        : { kind: "invalid-response", id: null, reason: "success response with a null id" };
    }
    if (!hasErrorObject(value)) {
      return {
        kind: "invalid-response",
        id: readableId,
        reason: "error must be an object with an integer code and a string message",
      };
    }
    return { kind: "response", message: value };
  }

  return invalid("Invalid request: neither a request, a notification nor a response");
}

/** Serializes an error response. `data` is dropped when undefined. */
export function errorResponse(id: JsonRpcId | null, error: RequestError): JsonRpcErrorResponse {
  return { jsonrpc: "2.0", id, error: error.toErrorObject() };
}
