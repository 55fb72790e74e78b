import {
  type BackoffOptions,
  backoffDelay,
  ConnectionError,
  ConnectionErrorKinds,
  type Logger,
  type Transport,
  type TransportSink,
} from "@acp-kit/protocol/jsonrpc";
import { scanNotification } from "../notification-scan.js";
import {
  ACP_CONNECTION_ID_HEADER,
  ACP_SESSION_ID_HEADER,
  EVENT_STREAM,
  JSON_CONTENT,
  type MessageShape,
  parseJson,
  REPLAY_GAP_EVENT,
  shapeOf,
} from "../wire.js";
import { ConnectionCookies } from "./cookies.js";
import { type SseEvent, SseParser } from "./sse-parser.js";

export interface ConnectHttpOptions {
  /** Headers for every request, e.g. `Authorization`. */
  headers?: Record<string, string>;
  /** The `fetch` to use. Default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Browsers: the requests' `credentials` (cookies for affinity). Default `"include"`. */
  credentials?: "omit" | "same-origin" | "include";
  /** Reconnecting a dropped stream: backoff between attempts and how many in a row. Default 10 attempts. */
  reconnect?: BackoffOptions & { maxAttempts?: number };
  /**
   * A reconnected stream lost messages (the server's replay window no longer had them).
   * `sessionId` is the stream's session (undefined: the connection stream); `session/resume`
   * with replay brings that session's state back. A session's gap is reported once the stream
   * delivered what it still had from before (see `HttpClientTransport.onReplayGap`), so a resume
   * sent then gets its replay after every stale event. A gap on the connection stream may have
   * lost responses: the connection then ends (a `ConnectionError`, `details.reason: "replay_gap"`).
   * `connectRecoverable` of `@acp-kit/client` does both recoveries itself.
   */
  onReplayGap?: (info: ReplayGap) => void;
  /** Largest server-sent event in characters; larger ends the connection. Default 32 Mi. */
  maxEventChars?: number;
  /** Output queued for POSTs past which `send` asks the caller to wait. Default 1 MiB. */
  highWaterMark?: number;
  logger?: Logger;
}

/** A reopened stream missed events past the server's replay window. */
export interface ReplayGap {
  /** The stream's session; undefined for the connection stream. */
  sessionId: string | undefined;
}

/** The client side of one ACP connection over Streamable HTTP. */
export interface HttpClientTransport extends Transport {
  /** The `Acp-Connection-Id` the server gave on `initialize` (undefined before). */
  readonly connectionId: string | undefined;
  /**
   * Adds a listener of replay gaps (as the `onReplayGap` option, for whoever holds the transport);
   * returns a function that removes it. A listener that throws is logged. A session's gap is
   * reported once the stream delivered what the server still had from before (a barrier request,
   * `_acp-kit/stream_barrier`, whose answer comes on the session stream after them), so a resume
   * sent then gets its replay after every stale event.
   */
  onReplayGap(listener: (gap: ReplayGap) => void): () => void;
}

/** Requests whose results name a session whose stream the client opens. */
const OPENS_SESSION = new Set(["session/new", "session/load", "session/resume", "session/fork"]);
/** Requests whose replay (on the session stream) must reach the client before their answer. */
const REPLAYS_SESSION = new Set(["session/load", "session/resume"]);
/** Requests whose success ends a session, and with it its stream. */
const ENDS_SESSION = new Set(["session/close", "session/delete"]);
/**
 * The method of the barrier request: an extension no agent implements, sent on a session's stream
 * so that its answer (any answer, -32601 as a rule) comes after everything queued there before;
 * the answer is kept from the connection.
 */
const STREAM_BARRIER_METHOD = "_acp-kit/stream_barrier";
/** Barrier request ids (strings; the client's own connection numbers its requests). */
const BARRIER_ID_PREFIX = "acp-kit-barrier-";
const BARRIER_ID_KEY_PREFIX = `s:${BARRIER_ID_PREFIX}`;
/** How long a barrier's answer is waited for before the client goes on without it. */
const BARRIER_TIMEOUT_MS = 10_000;
/** POST statuses after which the connection is unusable. */
const CONNECTION_GONE = new Set([401, 403, 404, 410]);

/**
 * Connects to an ACP endpoint over Streamable HTTP (`POST` for what the client sends, SSE
 * `GET` streams for what the agent sends), in Node and in browsers. Returns the transport
 * at once: the first payload sent must be `initialize`, whose answer carries the connection
 * id; the connection stream opens right after it, and each session's stream opens before the
 * first request that needs it and closes with the session. Dropped streams reconnect with
 * backoff and `Last-Event-ID`, so the server replays what they missed.
 *
 * @example
 * ```ts
 * import { connectToAgent } from "@acp-kit/client";
 * import { connectHttp } from "@acp-kit/transport-http";
 *
 * const transport = await connectHttp("http://127.0.0.1:8080/acp", {
 *   headers: { Authorization: `Bearer ${process.env.ACP_TOKEN}` },
 * });
 * const client = await connectToAgent(transport, { info: { name: "my-editor", version: "1.0.0" } });
 * ```
 */
export async function connectHttp(url: string | URL, options: ConnectHttpOptions = {}): Promise<HttpClientTransport> {
  const endpoint = new URL(url.toString());
  if (endpoint.protocol !== "http:" && endpoint.protocol !== "https:")
    throw new TypeError(`connectHttp needs an http(s) URL, got ${endpoint.protocol}`);
  return new HttpClient(endpoint, options);
}

class HttpClient implements HttpClientTransport {
  connectionId: string | undefined;
  private sink: TransportSink | undefined;
  private readonly fetch: typeof globalThis.fetch;
  private readonly cookies = new ConnectionCookies();
  private posts: Promise<void> = Promise.resolve();
  private queuedBytes = 0;
  private readonly streams = new Map<string, EventStream>();
  /** Our requests in flight → method and session, to open or close streams on their answer. */
  private readonly requests = new Map<string, { method: string; sessionId: string | undefined }>();
  /** The agent's requests in flight → their session (our answer goes with its header). */
  private readonly agentRequests = new Map<string, string>();
  private ended = false;
  private readonly highWaterMark: number;
  private readonly gapListeners = new Set<(gap: ReplayGap) => void>();
  /** Barriers in flight (their request id key → the gap they report once answered). */
  private readonly barriers = new Map<string, () => void>();
  private barrierCount = 0;

  constructor(
    readonly url: URL,
    readonly options: ConnectHttpOptions,
  ) {
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.highWaterMark = options.highWaterMark ?? 1024 * 1024;
  }

  start(sink: TransportSink): void {
    this.sink = sink;
  }

  onReplayGap(listener: (gap: ReplayGap) => void): () => void {
    this.gapListeners.add(listener);
    return () => this.gapListeners.delete(listener);
  }

  /** A stream reopened past the server's window; a connection stream's gap ends the connection. */
  replayGap(sessionId: string | undefined): void {
    if (sessionId === undefined) {
      this.reportGap(undefined);
      return;
    }
    // Reported once the stream delivered what it held from before, so a resume's replay follows it.
    void this.barrier(sessionId).then(() => this.reportGap(sessionId));
  }

  /**
   * Settles once `sessionId`'s stream delivered every event the server queued on it before now:
   * the answer to a request on the session stream comes after them (see `STREAM_BARRIER_METHOD`).
   */
  private barrier(sessionId: string): Promise<void> {
    return new Promise((resolve) => {
      const id = `${BARRIER_ID_PREFIX}${++this.barrierCount}`;
      // An agent that never answers must not hold the connection stream: after a while, go on.
      const timer = setTimeout(() => {
        if (!this.barriers.delete(`s:${id}`)) return;
        this.options.logger?.warn?.(`ACP HTTP: no answer to the stream barrier of session ${sessionId}; going on`);
        resolve();
      }, BARRIER_TIMEOUT_MS);
      this.barriers.set(`s:${id}`, () => {
        clearTimeout(timer);
        resolve();
      });
      const payload = JSON.stringify({ jsonrpc: "2.0", id, method: STREAM_BARRIER_METHOD, params: { sessionId } });
      try {
        void Promise.resolve(this.send(payload)).catch(() => undefined);
      } catch {
        // Not sent (the connection ended): nothing to wait for.
        this.barriers.get(`s:${id}`)?.();
        this.barriers.delete(`s:${id}`);
      }
    });
  }

  private reportGap(sessionId: string | undefined): void {
    const gap: ReplayGap = { sessionId };
    for (const listener of [this.options.onReplayGap, ...this.gapListeners]) {
      try {
        listener?.(gap);
      } catch (error) {
        this.options.logger?.error?.("ACP HTTP: an onReplayGap listener threw", error);
      }
    }
    if (sessionId === undefined)
      this.fail(
        new ConnectionError(
          ConnectionErrorKinds.Closed,
          "The connection stream lost events past the server's replay window (responses may be missing)",
          { details: { reason: "replay_gap" } },
        ),
      );
  }

  send(payload: string): void | Promise<void> {
    if (this.ended) throw ConnectionError.closed("The HTTP connection is closed");
    this.queuedBytes += payload.length;
    // POSTs go one after another so the agent receives messages in the order they were sent.
    const posted = this.posts.then(async () => {
      this.queuedBytes -= payload.length;
      if (!this.ended) await this.post(payload);
    });
    this.posts = posted.catch((error: unknown) => this.fail(asConnectionError(error, "A POST to the agent failed")));
    if (this.queuedBytes > this.highWaterMark) return this.posts;
  }

  async close(): Promise<void> {
    if (this.ended) return;
    await this.posts;
    if (this.ended) return;
    this.ended = true;
    this.releaseBarriers();
    for (const stream of this.streams.values()) stream.stop();
    if (this.connectionId !== undefined) {
      await this.request("DELETE", {}).catch(() => undefined);
    }
    this.cookies.clear();
    this.sink?.closed();
  }

  describePeer(): { source: string } {
    return { source: `Streamable HTTP endpoint ${this.url.href}` };
  }

  // ---- sending ----

  private async post(payload: string): Promise<void> {
    const shape = shapeOf(parseJson(payload));
    if (this.connectionId === undefined) return this.postInitialize(payload, shape);
    const sessionId =
      shape.kind === "response"
        ? shape.idKey === undefined
          ? undefined
          : this.agentRequests.get(shape.idKey)
        : shape.sessionId;
    if (shape.kind === "response" && shape.idKey !== undefined) this.agentRequests.delete(shape.idKey);
    if (sessionId !== undefined) {
      try {
        await this.streamFor(sessionId).opened;
      } catch (error) {
        if (this.ended) return;
        return this.refuseLocally(shape, `The stream of session ${sessionId} could not be opened`, error);
      }
    }
    if (shape.kind === "request" && shape.idKey !== undefined)
      this.requests.set(shape.idKey, { method: shape.method ?? "", sessionId });
    const response = await this.request("POST", {
      body: payload,
      headers: {
        "Content-Type": JSON_CONTENT,
        ...(sessionId === undefined ? {} : { [ACP_SESSION_ID_HEADER]: sessionId }),
      },
    });
    if (response.ok) {
      await response.body?.cancel();
      return;
    }
    const body = await response.text().catch(() => "");
    if (CONNECTION_GONE.has(response.status)) {
      throw new ConnectionError(ConnectionErrorKinds.Closed, `The server answered a POST with ${response.status}`, {
        details: { httpStatus: response.status, body: body.slice(0, 8192) },
      });
    }
    this.refuseLocally(shape, `The server answered the POST with HTTP ${response.status}`, undefined, {
      status: response.status,
      body: body.slice(0, 8192),
    });
  }

  private async postInitialize(payload: string, shape: MessageShape): Promise<void> {
    if (shape.kind !== "request" || shape.method !== "initialize")
      throw new ConnectionError(ConnectionErrorKinds.ProtocolViolation, "The first message must be initialize");
    const response = await this.request("POST", { body: payload, headers: { "Content-Type": JSON_CONTENT } });
    const body = await response.text();
    const connectionId = response.headers.get(ACP_CONNECTION_ID_HEADER) ?? undefined;
    const answer = parseJson(body);
    const answered = shapeOf(answer);
    if (!response.ok || answered.kind !== "response" || answered.idKey !== shape.idKey) {
      throw new ConnectionError(ConnectionErrorKinds.ConnectFailed, `initialize failed with HTTP ${response.status}`, {
        details: { httpStatus: response.status, body: body.slice(0, 8192) },
      });
    }
    if (connectionId === undefined) {
      // A refused initialize (an error response) leaves no connection: deliver it and end.
      await this.deliver(body);
      if ((answer as { error?: unknown }).error === undefined)
        throw new ConnectionError(ConnectionErrorKinds.ConnectFailed, "initialize answered without Acp-Connection-Id");
      return;
    }
    this.connectionId = connectionId;
    const stream = this.streamFor(undefined);
    await this.deliver(body);
    await stream.opened;
  }

  /** A request the server would not take: its caller gets a JSON-RPC error; anything else is logged. */
  private refuseLocally(shape: MessageShape, message: string, cause?: unknown, data?: unknown): void {
    const barrier = shape.idKey === undefined ? undefined : this.barriers.get(shape.idKey);
    if (barrier !== undefined && shape.idKey !== undefined) {
      // The barrier could not be sent: there is nothing to wait for.
      this.barriers.delete(shape.idKey);
      this.requests.delete(shape.idKey);
      barrier();
      return;
    }
    if (shape.kind === "request" && shape.idKey !== undefined) {
      this.requests.delete(shape.idKey);
      const id = shape.idKey.startsWith("n:") ? Number(shape.idKey.slice(2)) : shape.idKey.slice(2);
      const error = { code: -32603, message, ...(data === undefined ? {} : { data }) };
      void this.deliver(JSON.stringify({ jsonrpc: "2.0", id, error }));
      return;
    }
    this.options.logger?.warn?.(`ACP HTTP: ${message}; a message was not delivered`, { cause, data });
  }

  // ---- receiving ----

  /** One event of any stream (`stream`: its session; undefined, the connection stream), in its stream's order. */
  received(data: string, stream: string | undefined): void | PromiseLike<void> {
    // A notification changes nothing here: straight to the connection, unparsed.
    if (scanNotification(data)) return this.deliver(data);
    return this.receivedMessage(data, stream);
  }

  private async receivedMessage(data: string, stream: string | undefined): Promise<void> {
    const shape = shapeOf(parseJson(data));
    if (shape.kind === "response" && shape.idKey?.startsWith(BARRIER_ID_KEY_PREFIX)) {
      // A barrier's answer (or a late one, after its wait was over) is ours alone.
      const barrier = this.barriers.get(shape.idKey);
      this.barriers.delete(shape.idKey);
      this.requests.delete(shape.idKey);
      return barrier?.();
    }
    if (shape.kind === "request" && shape.idKey !== undefined && shape.sessionId !== undefined)
      this.agentRequests.set(shape.idKey, shape.sessionId);
    let ends: string | undefined;
    if (shape.kind === "response" && shape.idKey !== undefined) {
      const request = this.requests.get(shape.idKey);
      this.requests.delete(shape.idKey);
      const failed = (parseJson(data) as { error?: unknown } | undefined)?.error !== undefined;
      if (request && !failed) {
        // Open the stream before the application sees the session, so nothing waits on it.
        if (OPENS_SESSION.has(request.method) && shape.sessionId !== undefined) this.streamFor(shape.sessionId);
        else if (OPENS_SESSION.has(request.method) && request.sessionId !== undefined)
          this.streamFor(request.sessionId);
        if (ENDS_SESSION.has(request.method)) ends = request.sessionId;
        // The replay came on the session stream; an answer on another stream waits for it.
        if (REPLAYS_SESSION.has(request.method) && request.sessionId !== undefined && stream !== request.sessionId)
          await this.barrier(request.sessionId);
      }
    }
    await this.deliver(data);
    if (ends !== undefined) {
      this.streams.get(ends)?.stop();
      this.streams.delete(ends);
    }
  }

  private deliver(payload: string): void | PromiseLike<void> {
    if (this.ended || !this.sink) return;
    return this.sink.message(payload);
  }

  private streamFor(sessionId: string | undefined): EventStream {
    const key = sessionId ?? "";
    let stream = this.streams.get(key);
    if (!stream) {
      stream = new EventStream(this, sessionId);
      this.streams.set(key, stream);
    }
    return stream;
  }

  // ---- shared ----

  async request(
    method: string,
    init: { body?: string; headers?: Record<string, string>; signal?: AbortSignal },
  ): Promise<Response> {
    const headers: Record<string, string> = { ...this.options.headers, ...init.headers };
    if (this.connectionId !== undefined) headers[ACP_CONNECTION_ID_HEADER] = this.connectionId;
    const cookie = this.cookies.header();
    if (cookie !== undefined) headers.Cookie = cookie;
    const response = await this.fetch(this.url, {
      method,
      headers,
      body: init.body,
      signal: init.signal,
      credentials: this.options.credentials ?? "include",
    });
    this.cookies.store(response);
    return response;
  }

  /** The connection ended: nothing waits on a barrier any more. */
  private releaseBarriers(): void {
    const waiting = [...this.barriers.values()];
    this.barriers.clear();
    for (const release of waiting) release();
  }

  get isEnded(): boolean {
    return this.ended;
  }

  fail(error: ConnectionError): void {
    if (this.ended) return;
    this.ended = true;
    this.releaseBarriers();
    for (const stream of this.streams.values()) stream.stop();
    if (this.connectionId !== undefined) void this.request("DELETE", {}).catch(() => undefined);
    this.cookies.clear();
    this.sink?.closed(error);
  }
}

/** One GET stream of the connection: reads events in order, reconnects with `Last-Event-ID`. */
class EventStream {
  /** Settles once the first GET was answered (rejects if it was refused). */
  readonly opened: Promise<void>;
  private resolveOpened!: () => void;
  private rejectOpened!: (error: unknown) => void;
  private openedOnce = false;
  private readonly abort = new AbortController();
  private stopped = false;
  private lastEventId = "";
  private retryMs: number | undefined;

  constructor(
    private readonly client: HttpClient,
    private readonly sessionId: string | undefined,
  ) {
    this.opened = new Promise((resolve, reject) => {
      this.resolveOpened = resolve;
      this.rejectOpened = reject;
    });
    this.opened.catch(() => {});
    void this.run();
  }

  stop(): void {
    this.stopped = true;
    this.abort.abort();
  }

  private async run(): Promise<void> {
    const maxAttempts = this.client.options.reconnect?.maxAttempts ?? 10;
    let failures = 0;
    while (!this.stopped && !this.client.isEnded) {
      let outcome: "ended" | "failed";
      let error: unknown;
      try {
        outcome = await this.readOnce(() => {
          failures = 0;
        });
      } catch (caught) {
        if (this.stopped) return;
        if (caught instanceof ConnectionError && caught.details.final === true) {
          if (!this.openedOnce) this.rejectOpened(caught);
          // A stream the server no longer knows about means the connection is gone.
          if (caught.details.httpStatus === 404) this.client.fail(caught);
          return;
        }
        outcome = "failed";
        error = caught;
      }
      if (this.stopped || this.client.isEnded) return;
      failures++;
      if (failures > maxAttempts) {
        const reason = asConnectionError(error, `The ${this.describe()} dropped and did not come back`);
        if (!this.openedOnce) this.rejectOpened(reason);
        this.client.fail(reason);
        return;
      }
      const delay = this.retryMs ?? backoffDelay(failures, this.client.options.reconnect);
      this.client.options.logger?.debug?.(`ACP HTTP: reconnecting the ${this.describe()}`, { outcome, delay });
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  /** One GET: resolves when the server ended the response, throws on a failure. */
  private async readOnce(onData: () => void): Promise<"ended"> {
    const headers: Record<string, string> = { Accept: EVENT_STREAM };
    if (this.sessionId !== undefined) headers[ACP_SESSION_ID_HEADER] = this.sessionId;
    // After the first open, always resume: "0" asks for everything the stream still has.
    if (this.openedOnce) headers["Last-Event-ID"] = this.lastEventId || "0";
    const response = await this.client.request("GET", { headers, signal: this.abort.signal });
    if (!response.ok || !response.body) {
      const body = await response.text().catch(() => "");
      const final = response.status !== 409 && response.status !== 429 && response.status < 500;
      throw new ConnectionError(
        ConnectionErrorKinds.ConnectFailed,
        `The ${this.describe()} was refused with HTTP ${response.status}`,
        { details: { httpStatus: response.status, body: body.slice(0, 8192), final } },
      );
    }
    if (!this.openedOnce) {
      this.openedOnce = true;
      this.resolveOpened();
    }
    const events: SseEvent[] = [];
    const parser = new SseParser(
      {
        event: (event) => events.push(event),
        retry: (ms) => {
          this.retryMs = ms;
        },
      },
      this.client.options.maxEventChars,
    );
    // Decoded here rather than through a TextDecoderStream: one stream hop less per chunk.
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return "ended";
        parser.push(decoder.decode(value, { stream: true }));
        for (const event of events.splice(0)) {
          onData();
          if (event.type === "message") {
            // Awaited only when the connection asks to wait (its inbound backpressure).
            const delivered = this.client.received(event.data, this.sessionId);
            if (delivered) await delivered;
          } else if (event.type === REPLAY_GAP_EVENT) this.client.replayGap(this.sessionId);
          // Acknowledged only once delivered: a reconnect asks again for what was not.
          this.lastEventId = event.lastEventId;
          if (this.stopped || this.client.isEnded) return "ended";
        }
      }
    } finally {
      reader.cancel().catch(() => {});
    }
  }

  private describe(): string {
    return this.sessionId === undefined ? "connection stream" : `stream of session ${this.sessionId}`;
  }
}

function asConnectionError(error: unknown, message: string): ConnectionError {
  if (error instanceof ConnectionError) return error;
  return ConnectionError.closed(message, undefined, error);
}
