/**
 * The handler's view of one request and its answer, so one core serves two front ends: the
 * web-standard one (`Request` in, `Response` out) and the Node one (straight on `node:http`).
 */
import type { Receiver } from "./outbound-stream.js";

export type BodyOutcome = { ok: true; text: string } | { ok: false; status: 400 | 413 };

export interface HttpCall {
  readonly method: string;
  /** A request header (lower-case name); several values joined with ", ". */
  header(name: string): string | undefined;
  /** The body as UTF-8 text, stopping as soon as it passes `maxBytes`. */
  readBody(maxBytes: number): Promise<BodyOutcome>;
  /** Calls `listener` if the client goes away before the answer is sent; returns its removal. */
  onAbort(listener: () => void): () => void;
  /**
   * The request as a fetch `Request` (headers and URL), for the hooks that take one. It works
   * apart from the call and holds no more than the request's URL and headers.
   */
  readonly request: () => Request;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** A text body, or an SSE stream's receiver to connect to the response. */
  body?: string | Receiver;
}

/** A plain-text answer. */
export function text(status: number, message: string, headers: Record<string, string> = {}): Answer {
  return { status, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" }, body: message };
}
