/** Between Node's request/response objects (http and the http2 compatibility API) and fetch's. */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import { Readable } from "node:stream";

export type NodeRequest = IncomingMessage | Http2ServerRequest;
export type NodeResponse = ServerResponse | Http2ServerResponse;

/**
 * A fetch `Request` over a Node request; its signal aborts when the client goes away before the
 * response is ended (a response the server ended aborts nothing: an abort makes a `DOMException`
 * with its stack, once per request on a busy server).
 */
export function toFetchRequest(request: NodeRequest, response: NodeResponse, origin: string): Request {
  const headers = fetchHeaders(request.headers);
  const controller = new AbortController();
  response.once("close", () => {
    if (!response.writableEnded) controller.abort();
  });
  const method = request.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(new URL(request.url ?? "/", origin), {
    method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(request as Readable) as ReadableStream, duplex: "half" } : {}),
  } as RequestInit);
}

/** A Node request's headers as fetch `Headers` (HTTP/2 pseudo-headers left out). */
export function fetchHeaders(nodeHeaders: NodeRequest["headers"]): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(nodeHeaders)) {
    if (name.startsWith(":") || value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

/** Writes a fetch `Response` to a Node response, body with backpressure; stops reading when the client leaves. */
export async function writeFetchResponse(answer: Response, response: NodeResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  answer.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = answer.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  response.writeHead(answer.status, headers);
  if (!answer.body) {
    response.end();
    return;
  }
  (response as ServerResponse).flushHeaders?.();
  const reader = answer.body.getReader();
  let gone = false;
  const onClose = () => {
    gone = true;
    reader.cancel().catch(() => {});
  };
  response.once("close", onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || gone) break;
      if (!(response as ServerResponse).write(value)) {
        await new Promise<void>((resolve) => {
          const settle = () => {
            response.off("drain", settle);
            response.off("close", settle);
            resolve();
          };
          response.on("drain", settle);
          response.on("close", settle);
        });
      }
    }
  } catch {
    // The body failed or was cancelled: end what we have.
  } finally {
    response.off("close", onClose);
    if (!gone) response.end();
  }
}
