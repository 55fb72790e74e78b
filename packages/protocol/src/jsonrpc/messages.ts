/**
 * JSON-RPC 2.0 message shapes and the classification of inbound values.
 * ACP narrows the spec: ids are strings or integers and never `null` in requests.
 */
import { type ErrorObject, RequestError } from "./errors.js";

/** A request id: a string or an integer. `null` only ever appears in error responses. */
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

/**
 * True for the ids ACP accepts in a request: strings and integers (no `null`, no fractions).
 * Integers must be safe (|n| < 2^53): beyond that `JSON.parse` already rounded the id, so it
 * could not be echoed exactly and the request is refused instead.
 */
export function isJsonRpcId(value: unknown): value is JsonRpcId {
  return typeof value === "string" || (typeof value === "number" && Number.isSafeInteger(value));
}

/** One inbound value, sorted into what the connection must do with it. */
export type InboundEntry =
  | { kind: "request"; message: JsonRpcRequest }
  | { kind: "notification"; message: JsonRpcNotification }
  | { kind: "response"; message: JsonRpcResponse }
  /** Not a valid request or notification: answer with `error` (`id` is `null` unless it was readable). */
  | { kind: "invalid"; id: JsonRpcId | null; error: RequestError }
  /** Looks like a response but is malformed: never answered (answering responses can loop). */
  | { kind: "invalid-response"; id: JsonRpcId | null; reason: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isErrorObject(value: unknown): value is ErrorObject {
  return isRecord(value) && Number.isInteger(value.code) && typeof value.message === "string";
}

const invalid = (message: string, id: JsonRpcId | null = null): InboundEntry => ({
  kind: "invalid",
  id,
  error: RequestError.invalidRequest(message),
});

/** Sorts one parsed JSON value (a whole payload or one batch entry). Never throws. */
export function classifyInbound(value: unknown): InboundEntry {
  if (!isRecord(value)) return invalid("Invalid request: expected a JSON-RPC message object");
  if (value.jsonrpc !== "2.0") return invalid('Invalid request: "jsonrpc" must be "2.0"');

  if ("method" in value) {
    const hasId = "id" in value;
    if (hasId && !isJsonRpcId(value.id)) {
      return invalid(
        typeof value.id === "number" && Number.isInteger(value.id)
          ? "Invalid request: integer id beyond 2^53 cannot be echoed exactly; use a string id"
          : "Invalid request: id must be a string or an integer",
      );
    }
    const id = hasId ? (value.id as JsonRpcId) : null;
    if (typeof value.method !== "string") return invalid("Invalid request: method must be a string", id);
    const params = value.params;
    if (params !== undefined && (typeof params !== "object" || params === null)) {
      return invalid("Invalid request: params must be an object or an array", id);
    }
    return hasId
      ? { kind: "request", message: value as unknown as JsonRpcRequest }
      : { kind: "notification", message: value as unknown as JsonRpcNotification };
  }

  if ("id" in value && ("result" in value || "error" in value)) {
    const id = value.id;
    const readableId = isJsonRpcId(id) ? id : null;
    if (id !== null && !isJsonRpcId(id))
      return { kind: "invalid-response", id: null, reason: "response id must be a string, an integer or null" };
    if ("result" in value && "error" in value)
      return { kind: "invalid-response", id: readableId, reason: "response has both result and error" };
    if ("error" in value && !isErrorObject(value.error)) {
      return {
        kind: "invalid-response",
        id: readableId,
        reason: "error must be an object with an integer code and a string message",
      };
    }
    if ("result" in value && id === null)
      return { kind: "invalid-response", id: null, reason: "success response with a null id" };
    return { kind: "response", message: value as unknown as JsonRpcResponse };
  }

  return invalid("Invalid request: neither a request, a notification nor a response");
}

/** Serializes an error response. `data` is dropped when undefined. */
export function errorResponse(id: JsonRpcId | null, error: RequestError): JsonRpcErrorResponse {
  return { jsonrpc: "2.0", id, error: error.toErrorObject() };
}
