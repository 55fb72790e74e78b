/**
 * The handler's Node front end: a call read straight off a Node request (no fetch `Request`
 * unless a hook asks for one) and its answer written straight to the Node response, SSE events
 * included (no web streams).
 */
import type { Answer, BodyOutcome, HttpCall } from "../server/call.js";
import { fetchHeaders, type NodeRequest, type NodeResponse } from "./fetch-bridge.js";
import { nodeSseSink } from "./sse-sink.js";

export function nodeCall(request: NodeRequest, response: NodeResponse, origin: string): HttpCall {
  const method = request.method ?? "GET";
  return {
    method,
    header(name) {
      const value = request.headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(", ") : value;
    },
    readBody: (maxBytes) => readNodeBody(request, maxBytes),
    onAbort(listener) {
      const onClose = () => {
        if (!response.writableEnded) listener();
      };
      response.once("close", onClose);
      return () => response.off("close", onClose);
    },
    request: headersOnlyRequest(method, request.url ?? "/", request.headers, origin),
  };
}

/**
 * The request's URL and headers as a fetch `Request` (its body is the handler's to read), built
 * on the first call. The function holds only those, not the Node request and response: a
 * connection's info keeps it for the connection's life.
 */
function headersOnlyRequest(
  method: string,
  url: string,
  headers: NodeRequest["headers"],
  origin: string,
): () => Request {
  let built: Request | undefined;
  return () => {
    built ??= new Request(new URL(url, origin), { method, headers: fetchHeaders(headers) });
    return built;
  };
}

/** Reads the body as UTF-8 text; past `maxBytes` it stops reading (the rest is never buffered). */
function readNodeBody(request: NodeRequest, maxBytes: number): Promise<BodyOutcome> {
  const declared = request.headers["content-length"];
  if (declared !== undefined && Number(declared) > maxBytes) return Promise.resolve({ ok: false, status: 413 });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (outcome: BodyOutcome) => {
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("error", onError);
      request.off("aborted", onError);
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        request.pause();
        settle({ ok: false, status: 413 });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () =>
      settle({
        ok: true,
        text: chunks.length === 1 ? (chunks[0] as Buffer).toString("utf8") : Buffer.concat(chunks).toString("utf8"),
      });
    const onError = () => settle({ ok: false, status: 400 });
    request.on("data", onData);
    request.once("end", onEnd);
    request.once("error", onError);
    request.once("aborted", onError);
  });
}

/** Writes an answer; an SSE answer's receiver then writes its events, with the response's backpressure. */
export function writeAnswer(answer: Answer, response: NodeResponse): void {
  const body = answer.body;
  // An unread body (past maxBodyBytes) is not drained: HTTP/1.1 ends the connection after the answer.
  if (answer.status === 413 && "shouldKeepAlive" in response) response.shouldKeepAlive = false;
  if (body === undefined || typeof body === "string") {
    const headers =
      body === undefined ? answer.headers : { ...answer.headers, "Content-Length": String(Buffer.byteLength(body)) };
    response.writeHead(answer.status, headers);
    if (body === undefined) response.end();
    else response.end(body);
    return;
  }
  response.writeHead(answer.status, answer.headers);
  response.once("close", () => body.cancel());
  body.connect(nodeSseSink(response, () => body.resume()));
}
