/**
 * A `fetch` over HTTP/2 with TLS (node:http2), for clients that must reach a proxy's HTTP/2 front
 * with a test certificate: Node's global fetch speaks HTTP/1.1 only. One session per origin,
 * opened again once it closed; response bodies stream with backpressure; `signal` cancels the
 * stream. `protocols` records the ALPN protocol of every session, so a test can check it was h2.
 */
import { type ClientHttp2Session, connect, constants } from "node:http2";
import { Readable } from "node:stream";

export interface H2Fetch {
  fetch: typeof globalThis.fetch;
  /** The ALPN protocol each session negotiated, in order. */
  readonly protocols: string[];
  /** Closes every session. */
  close(): void;
}

export function createH2Fetch(options: { ca: string }): H2Fetch {
  const sessions = new Map<string, ClientHttp2Session>();
  const protocols: string[] = [];
  const sessionFor = (origin: string): ClientHttp2Session => {
    const open = sessions.get(origin);
    if (open && !open.closed && !open.destroyed) return open;
    const session = connect(origin, { ca: options.ca });
    session.on("error", () => sessions.delete(origin));
    session.on("close", () => {
      if (sessions.get(origin) === session) sessions.delete(origin);
    });
    session.once("connect", () => protocols.push(session.alpnProtocol ?? "none"));
    sessions.set(origin, session);
    return session;
  };

  const fetch = (async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    const headers: Record<string, string> = {
      ":method": init.method ?? "GET",
      ":path": `${url.pathname}${url.search}`,
    };
    for (const [name, value] of new Headers(init.headers).entries()) headers[name] = value;
    const signal = init.signal ?? undefined;
    if (signal?.aborted) throw signal.reason;
    return await new Promise<Response>((resolve, reject) => {
      let stream: ReturnType<ClientHttp2Session["request"]>;
      try {
        stream = sessionFor(url.origin).request(headers, { endStream: init.body === undefined || init.body === null });
      } catch (error) {
        reject(new TypeError("fetch failed", { cause: error }));
        return;
      }
      const onAbort = () => {
        stream.close(constants.NGHTTP2_CANCEL);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      stream.once("error", (error) => reject(new TypeError("fetch failed", { cause: error })));
      stream.once("close", () => signal?.removeEventListener("abort", onAbort));
      stream.once("response", (received) => {
        const status = Number(received[":status"]);
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(received)) {
          if (name.startsWith(":") || value === undefined) continue;
          for (const one of Array.isArray(value) ? value : [String(value)]) responseHeaders.append(name, one);
        }
        const noBody = status === 204 || status === 304 || headers[":method"] === "HEAD";
        if (noBody) stream.resume();
        const body = noBody ? null : (Readable.toWeb(stream) as ReadableStream<Uint8Array>);
        resolve(new Response(body, { status, headers: responseHeaders }));
      });
      if (init.body !== undefined && init.body !== null) stream.end(init.body as string);
    });
  }) as typeof globalThis.fetch;

  return {
    fetch,
    protocols,
    close() {
      for (const session of sessions.values()) session.destroy();
      sessions.clear();
    },
  };
}
