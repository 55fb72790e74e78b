/**
 * Two kinds of failure, kept apart on purpose:
 * - `RequestError` is a JSON-RPC error object that travels on the wire (code, message, data).
 * - `ConnectionError` is local: the connection or its transport failed, nothing was answered.
 * The codes a protocol on top adds (ACP's are in ../acp/errors.ts) are not this file's business.
 */

import { clipText, DEFAULT_MAX_ECHO_LENGTH } from "./limits.js";
import { LocalError } from "./local-error.js";

/**
 * The JSON-RPC 2.0 error codes, plus -32800 for a request its caller cancelled (the code LSP
 * uses; the connection answers it when `$/cancel_request` aborted a handler).
 */
export const JsonRpcErrorCodes = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  RequestCancelled: -32800,
} as const;
export type JsonRpcErrorCode = (typeof JsonRpcErrorCodes)[keyof typeof JsonRpcErrorCodes];

/** The `error` member of a JSON-RPC error response. */
export interface ErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** An error that is (or was) a JSON-RPC error response. Throw it from a handler to answer with it as is. */
export class RequestError extends Error {
  override readonly name = "RequestError";
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }

  toErrorObject(): ErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  static fromErrorObject(error: ErrorObject): RequestError {
    return new RequestError(error.code, error.message, error.data);
  }

  static parseError(data?: unknown): RequestError {
    return new RequestError(JsonRpcErrorCodes.ParseError, "Parse error", data);
  }
  static invalidRequest(message = "Invalid request", data?: unknown): RequestError {
    return new RequestError(JsonRpcErrorCodes.InvalidRequest, message, data);
  }
  /** The method name is repeated clipped to `maxEcho` characters (a peer controls its length). */
  static methodNotFound(method: string, maxEcho: number = DEFAULT_MAX_ECHO_LENGTH): RequestError {
    const shown = clipText(method, maxEcho);
    return new RequestError(JsonRpcErrorCodes.MethodNotFound, `Method not found: ${shown}`, { method: shown });
  }
  static invalidParams(message = "Invalid params", data?: unknown): RequestError {
    return new RequestError(JsonRpcErrorCodes.InvalidParams, message, data);
  }
  static internalError(message = "Internal error", data?: unknown): RequestError {
    return new RequestError(JsonRpcErrorCodes.InternalError, message, data);
  }
  static requestCancelled(data?: unknown): RequestError {
    return new RequestError(JsonRpcErrorCodes.RequestCancelled, "Request cancelled", data);
  }
}

/** Why a connection failed locally. */
export const ConnectionErrorKinds = {
  /** The connection or transport was closed (by either side, or the process exited). */
  Closed: "closed",
  /** A payload could not be written to the transport. */
  WriteFailed: "write_failed",
  /** The peer broke the protocol in a way the connection cannot recover from. */
  ProtocolViolation: "protocol_violation",
  /** An inbound frame or line exceeded the configured maximum size. */
  PayloadTooLarge: "payload_too_large",
  /** The transport could not be established (spawn failed, upgrade refused, ...). */
  ConnectFailed: "connect_failed",
  /** A local check refused to send an invalid or unadvertised message. */
  InvalidOutgoing: "invalid_outgoing",
  /** The peer did not answer in time where an answer is due (e.g. the first request of a handshake). */
  Timeout: "timeout",
} as const;
export type ConnectionErrorKind = (typeof ConnectionErrorKinds)[keyof typeof ConnectionErrorKinds];

/** Facts a transport knows about why it ended (process exit, HTTP status, ...). */
export interface ConnectionErrorDetails {
  exitCode?: number | null;
  signal?: string | null;
  /** The last lines the agent process wrote to stderr, oldest first. */
  stderrTail?: string[];
  /** HTTP status of a refused WebSocket upgrade. */
  httpStatus?: number;
  /** WebSocket close code and reason. */
  closeCode?: number;
  closeReason?: string;
  [key: string]: unknown;
}

/** A local failure of the connection or its transport. Never sent on the wire. */
export class ConnectionError extends LocalError {
  override readonly name = "ConnectionError";
  readonly kind: ConnectionErrorKind;
  readonly details: ConnectionErrorDetails;

  constructor(
    kind: ConnectionErrorKind,
    message: string,
    options: { cause?: unknown; details?: ConnectionErrorDetails } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.details = options.details ?? {};
  }

  static closed(message = "Connection closed", details?: ConnectionErrorDetails, cause?: unknown): ConnectionError {
    return new ConnectionError(ConnectionErrorKinds.Closed, message, { details, cause });
  }
}

/**
 * Builds an error without capturing a stack trace, for errors reported from an event of the
 * loop (a socket's close, a connection's clean end): their stack would only name the loop's
 * callbacks, and capturing it was a large part of a connection's teardown on a server that
 * churns connections. The caller's own stack is still there in the code that awaits the result.
 */
export function withoutStack<T>(make: () => T): T {
  // `stackTraceLimit` is V8's (Node, Chromium); elsewhere the error keeps its stack.
  const errors = Error as { stackTraceLimit?: number };
  const limit = errors.stackTraceLimit;
  if (limit === undefined) return make();
  errors.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    errors.stackTraceLimit = limit;
  }
}

/**
 * The local outcome of a request whose caller aborted it (`signal` fired): the promise rejects
 * at once with this error while `$/cancel_request` tells the peer. Named `AbortError` like the
 * DOM's, so code that checks `error.name === "AbortError"` treats it as any other abort.
 */
export class RequestAbortedError extends LocalError {
  override readonly name = "AbortError";
  /** The signal's `reason`. */
  readonly reason: unknown;
  readonly method: string;
  readonly requestId: string | number | undefined;

  constructor(method: string, requestId: string | number | undefined, reason: unknown) {
    super(`Request ${method} was aborted${reason instanceof Error ? `: ${reason.message}` : ""}`, { cause: reason });
    this.reason = reason;
    this.method = method;
    this.requestId = requestId;
  }
}
