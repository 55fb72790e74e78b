import { ConnectionError, type Transport, type TransportSink } from "@acp-kit/protocol/jsonrpc";
import type { LineReader } from "./line-reader.js";
import type { NdjsonTransport } from "./ndjson-transport.js";
import type { NdjsonWriter } from "./ndjson-writer.js";

/**
 * What both NDJSON transports (`ndjsonTransport` over any pair of streams, `spawnAgent`'s over a
 * child's pipes) keep the same way: the sink, the line reader, the writer, and ending once.
 * Each transport decides when to read, how to close and what else ending involves; this class
 * owns the state, the transports ask it.
 */
export class NdjsonTransportCore {
  readonly #writer: NdjsonWriter;
  #sink: TransportSink | undefined;
  #reader: LineReader | undefined;
  #finished = false;
  #finalError: Error | undefined;

  constructor(writer: NdjsonWriter) {
    this.#writer = writer;
  }

  /** The sink given to `start()`, once it was called. */
  get sink(): TransportSink | undefined {
    return this.#sink;
  }

  /** Whether the transport has ended. */
  get finished(): boolean {
    return this.#finished;
  }

  /** Whether a line reader was started. */
  get reading(): boolean {
    return this.#reader !== undefined;
  }

  /**
   * Takes the sink given to `start()`. Returns `false` when the transport ended before it was
   * started: the sink is then still told of the end, exactly once, and there is nothing to read.
   */
  attach(sink: TransportSink): boolean {
    if (this.#sink) throw new Error("Transport already started");
    this.#sink = sink;
    if (!this.#finished) return true;
    const error = this.#finalError;
    queueMicrotask(() => sink.closed(error));
    return false;
  }

  /** Starts the one line reader (`read` builds it) unless one runs already. */
  startReading(read: () => LineReader): void {
    this.#reader ??= read();
  }

  /** Stops delivering lines (the reader drops what it buffered). */
  stopReading(): void {
    this.#reader?.stop();
  }

  /**
   * Marks the transport ended, stops reading and fails what is queued for writing. Returns
   * whether this call ended it (only the first does); the caller then tells the sink.
   */
  end(error?: Error): boolean {
    if (this.#finished) return false;
    this.#finished = true;
    this.#finalError = error;
    this.#reader?.stop();
    this.#writer.dispose(error instanceof ConnectionError ? error : ConnectionError.closed("Transport closed"));
    return true;
  }

  /** What `send` throws once the transport ended: the error it ended with, else `fallback()`. */
  sendRefusal(fallback: () => ConnectionError): ConnectionError {
    return this.#finalError instanceof ConnectionError ? this.#finalError : fallback();
  }

  /** The public transport: the given `start`, `send` and `close`, plus `flush`, `onBeforeWrite` and the buffer views. */
  transport(methods: Pick<Transport, "start" | "send" | "close">): NdjsonTransport {
    const writer = this.#writer;
    const bufferedInbound = (): number => this.#reader?.bufferedBytes ?? 0;
    const isClosed = (): boolean => this.#finished;
    return {
      start: methods.start,
      send: methods.send,
      close: methods.close,
      flush(): void {
        writer.flush();
      },
      onBeforeWrite(listener: () => void): () => void {
        return writer.onBeforeWrite(listener);
      },
      get bufferedBytes() {
        return writer.bufferedBytes;
      },
      get inboundBufferedBytes() {
        return bufferedInbound();
      },
      get isClosed() {
        return isClosed();
      },
    };
  }
}
