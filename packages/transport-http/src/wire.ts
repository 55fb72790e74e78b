/** The wire vocabulary of ACP over Streamable HTTP, shared by the server and the client. */

export const ACP_CONNECTION_ID_HEADER = "Acp-Connection-Id";
export const ACP_SESSION_ID_HEADER = "Acp-Session-Id";
export const EVENT_STREAM = "text/event-stream";
export const JSON_CONTENT = "application/json";
/**
 * The SSE event type a resumed stream starts with when its `Last-Event-ID` is older than the
 * server's replay window: some messages are lost, the stream goes on from the live position.
 */
export const REPLAY_GAP_EVENT = "acp-replay-gap";

/** Client→agent methods that belong to one session: their POST carries `Acp-Session-Id`. */
const SESSION_SCOPED_METHODS = new Set([
  "session/prompt",
  "session/cancel",
  "session/load",
  "session/resume",
  "session/close",
  "session/delete",
  "session/fork",
  "session/set_mode",
  "session/set_model",
  "session/set_config_option",
]);

/** Requests whose responses travel on the connection stream although they name a session. */
const CONNECTION_ROUTED_RESPONSES = new Set(["session/new", "session/load", "session/resume"]);

export function isSessionScopedMethod(method: string): boolean {
  return SESSION_SCOPED_METHODS.has(method);
}

export function respondsOnConnectionStream(method: string): boolean {
  return CONNECTION_ROUTED_RESPONSES.has(method);
}

/** What routing needs to know about one JSON-RPC message (no validation beyond that). */
export interface MessageShape {
  kind: "request" | "notification" | "response" | "invalid";
  /** `id` as a map key (`s:` / `n:` prefix keeps "1" and 1 apart); undefined without one. */
  idKey: string | undefined;
  method: string | undefined;
  /** `params.sessionId` of a request or notification, `result.sessionId` of a response. */
  sessionId: string | undefined;
}

export function idKeyOf(id: unknown): string | undefined {
  if (typeof id === "string") return `s:${id}`;
  if (typeof id === "number") return `n:${id}`;
  return undefined;
}

export function shapeOf(message: unknown): MessageShape {
  if (typeof message !== "object" || message === null || Array.isArray(message)) {
    return { kind: "invalid", idKey: undefined, method: undefined, sessionId: undefined };
  }
  const record = message as Record<string, unknown>;
  const idKey = idKeyOf(record.id);
  if (typeof record.method === "string") {
    const params = record.params;
    const sessionId =
      typeof params === "object" && params !== null && typeof (params as { sessionId?: unknown }).sessionId === "string"
        ? (params as { sessionId: string }).sessionId
        : undefined;
    return { kind: "id" in record ? "request" : "notification", idKey, method: record.method, sessionId };
  }
  if ("result" in record || "error" in record) {
    const result = record.result;
    const sessionId =
      typeof result === "object" && result !== null && typeof (result as { sessionId?: unknown }).sessionId === "string"
        ? (result as { sessionId: string }).sessionId
        : undefined;
    return { kind: "response", idKey, method: undefined, sessionId };
  }
  return { kind: "invalid", idKey, method: undefined, sessionId: undefined };
}

/** Parses one payload; `undefined` when it is not JSON. */
export function parseJson(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    return undefined;
  }
}
