/**
 * A transport is a duplex channel of text payloads: each payload is one serialized JSON-RPC
 * message (or an inbound batch). Framing (NDJSON lines, WebSocket text frames) is the
 * transport's job; parsing and answering malformed JSON is the connection's.
 *
 * The contract is callback-based rather than a WHATWG stream so that one message costs one
 * function call: per-message stream hops cap throughput (see docs/benchmarks.md).
 */

/** Where a transport delivers what it receives. */
export interface TransportSink {
  /**
   * One inbound payload, in arrival order. Returning a promise asks the transport to stop
   * reading until it settles (inbound backpressure); returning nothing lets it go on.
   */
  message(payload: string): void | PromiseLike<void>;
  /**
   * The transport ended and will deliver nothing more. Called exactly once: without an
   * argument for a clean end (peer closed, `close()` called), with a `ConnectionError`
   * otherwise (process exited, socket dropped, oversized frame, ...).
   */
  closed(error?: Error): void;
}

/** What a transport can tell about its peer, for error reports (see `Transport.describePeer`). */
export interface TransportPeerDescription {
  /** Where the peer's messages come from, e.g. `stdout of agent "npx my-agent"`. */
  source: string;
  /** The last lines the peer wrote to stderr, oldest first (spawned agents). */
  stderrTail?: string[];
}

export interface Transport {
  /** Start delivering inbound payloads to `sink`. Called once; payloads never arrive before it. */
  start(sink: TransportSink): void;
  /**
   * Queue one payload for sending, in call order. Returns a promise only when the caller
   * should wait before sending more (outbound backpressure: the underlying buffer passed its
   * high-water mark); the promise resolves once it drained. Throws (or the returned promise
   * rejects with) a `ConnectionError` when the transport is closed or the write failed.
   */
  send(payload: string): void | Promise<void>;
  /** Flush what is queued, end the channel and release its resources. Idempotent. */
  close(): Promise<void>;
  /** Optional: who is on the other end, for error reports (a timeout names the command). */
  describePeer?(): TransportPeerDescription;
  /**
   * Optional: runs `listener` synchronously immediately before each write of queued payloads to
   * the channel (one call per write, however many payloads it carries; a payload may reach the
   * peer only after its write's listeners returned). Returns a function that removes it. The
   * agent uses it to write its session store ahead of the wire (docs/sessions.md). A listener
   * must not send on the transport; one that throws is logged and the write goes on.
   */
  onBeforeWrite?(listener: () => void): () => void;
}
