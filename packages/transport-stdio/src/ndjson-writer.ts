import type { Writable } from "node:stream";
import { BeforeWriteListeners, ConnectionError, ConnectionErrorKinds, type Logger } from "@acp-kit/protocol/jsonrpc";
import { frameLine, frameLines } from "./frame.js";

/**
 * When queued lines are handed to the stream:
 * - `"macrotask"` (default): lines sent during one turn of the event loop go out as one write
 *   (flushed by `setImmediate`, or at once when the batch reaches the high-water mark);
 * - `"microtask"`: lines sent in the same synchronous run go out as one write;
 * - `"none"`: every line is written as it is sent.
 */
export type WriteCoalescing = "macrotask" | "microtask" | "none";

export interface NdjsonWriterOptions {
  coalescing?: WriteCoalescing;
  /**
   * Bytes (queued here plus buffered by the stream) past which `write` returns a promise.
   * Default: the stream's `writableHighWaterMark`, at least 64 KiB (a Linux pipe's capacity: a
   * fast sender then makes one write per pipe-full instead of four).
   */
  highWaterMark?: number;
  /**
   * The function that really writes to the stream, when `stream.write` must not be used
   * (the agent side takes over `process.stdout.write` and writes through the original).
   */
  rawWrite?: (chunk: string, callback: (error?: Error | null) => void) => boolean;
  /** Called once when a write fails or the stream errors. */
  onError?: (error: ConnectionError) => void;
  /** Where a throwing before-write listener is reported. */
  logger?: Logger;
}

/**
 * Writes NDJSON lines to a Node `Writable` with bounded memory: `write` returns a promise
 * when the caller should wait (the stream's buffer passed its high-water mark) and nothing
 * otherwise, so the common case costs no allocation.
 */
export class NdjsonWriter {
  readonly #stream: Writable;
  readonly #coalescing: WriteCoalescing;
  readonly #highWaterMark: number;
  readonly #rawWrite: (chunk: string, callback: (error?: Error | null) => void) => boolean;
  readonly #onError: ((error: ConnectionError) => void) | undefined;
  readonly #beforeWrite: BeforeWriteListeners;
  /** Payloads sent but not yet handed to the stream (coalescing), framed when handed over. */
  #queued: string[] = [];
  /** Their characters, one LF each included. */
  #queuedLength = 0;
  #flushScheduled = false;
  #needDrain = false;
  #drain: { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } | undefined;
  #failure: ConnectionError | undefined;
  #ended = false;
  readonly #afterWrite = (error?: Error | null): void => {
    if (error) this.#fail(writeFailed(error));
  };

  constructor(stream: Writable, options: NdjsonWriterOptions = {}) {
    this.#stream = stream;
    this.#coalescing = options.coalescing ?? "macrotask";
    this.#highWaterMark = options.highWaterMark ?? Math.max(stream.writableHighWaterMark ?? 0, 64 * 1024);
    this.#rawWrite = options.rawWrite ?? ((chunk, callback) => stream.write(chunk, callback));
    this.#onError = options.onError;
    this.#beforeWrite = new BeforeWriteListeners(options.logger);
    stream.on("drain", this.#onDrain);
    stream.on("error", this.#onStreamError);
  }

  /** Bytes accepted by `write` that the operating system has not taken yet (approximate for non-ASCII text queued here). */
  get bufferedBytes(): number {
    return this.#queuedLength + (this.#stream.writableLength ?? 0);
  }

  /** Whether the writer can take more payloads (not ended, not failed). */
  get writable(): boolean {
    return this.#failure === undefined && !this.#ended;
  }

  write(payload: string): void | Promise<void> {
    if (this.#failure) throw this.#failure;
    if (this.#ended) throw ConnectionError.closed("Cannot send: the transport is closed");
    if (this.#coalescing === "none") {
      this.#handOver(frameLine(payload));
    } else {
      this.#queued.push(payload);
      this.#queuedLength += payload.length + 1;
      if (this.#queuedLength >= this.#highWaterMark) {
        this.flush();
      } else if (!this.#flushScheduled) {
        this.#flushScheduled = true;
        if (this.#coalescing === "microtask") queueMicrotask(this.#scheduledFlush);
        else setImmediate(this.#scheduledFlush);
      }
    }
    if (this.#needDrain) return this.#drainPromise();
    return undefined;
  }

  /**
   * Runs `listener` right before each hand-over to the stream: once per coalesced write, not
   * once per line (see `Transport.onBeforeWrite`). Returns its removal.
   */
  onBeforeWrite(listener: () => void): () => void {
    return this.#beforeWrite.add(listener);
  }

  /** Hand everything queued to the stream now (synchronously). */
  flush(): void {
    if (this.#queued.length === 0 || this.#failure) return;
    this.#handOver(frameLines(this.#takeQueued()));
  }

  /** The queued payloads, leaving the queue (and its length) empty. */
  #takeQueued(): string[] {
    const payloads = this.#queued;
    this.#queued = [];
    this.#queuedLength = 0;
    return payloads;
  }

  /**
   * Flush, then wait until the stream has handed everything to the operating system.
   * With `endStream`, also end the stream. Resolves (never rejects) once done or failed.
   */
  async end(endStream: boolean): Promise<void> {
    if (this.#ended) return;
    this.flush();
    this.#ended = true;
    const stream = this.#stream;
    if (this.#failure || stream.destroyed) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        stream.off("finish", done);
        stream.off("close", done);
        stream.off("error", done);
        stream.off("drain", onDrained);
        resolve();
      };
      const onDrained = (): void => {
        if ((stream.writableLength ?? 0) === 0) done();
      };
      stream.once("error", done);
      stream.once("close", done);
      if (endStream) {
        stream.once("finish", done);
        stream.end();
      } else if ((stream.writableLength ?? 0) === 0) {
        done();
      } else {
        stream.on("drain", onDrained);
      }
    });
  }

  /** Stop listening to the stream and reject a pending drain wait. Does not end the stream. */
  dispose(reason: ConnectionError): void {
    this.#ended = true;
    this.#takeQueued();
    this.#stream.off("drain", this.#onDrain);
    // Keep an error listener: a late EPIPE must not become an uncaught exception.
    this.#stream.off("error", this.#onStreamError);
    this.#stream.on("error", ignore);
    this.#rejectDrain(reason);
  }

  readonly #scheduledFlush = (): void => {
    this.#flushScheduled = false;
    this.flush();
  };

  #handOver(chunk: string): void {
    if (this.#stream.destroyed || this.#stream.writableEnded) {
      this.#fail(writeFailed(new Error("the output stream is closed")));
      throw this.#failure;
    }
    this.#beforeWrite.run();
    if (!this.#rawWrite(chunk, this.#afterWrite)) this.#needDrain = true;
  }

  #drainPromise(): Promise<void> {
    if (!this.#drain) {
      let resolve!: () => void;
      let reject!: (error: Error) => void;
      const promise = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      this.#drain = { promise, resolve, reject };
    }
    return this.#drain.promise;
  }

  readonly #onDrain = (): void => {
    this.#needDrain = false;
    const drain = this.#drain;
    this.#drain = undefined;
    drain?.resolve();
  };

  readonly #onStreamError = (error: Error): void => {
    this.#fail(writeFailed(error));
  };

  #fail(error: ConnectionError): void {
    if (this.#failure) return;
    this.#failure = error;
    this.#takeQueued();
    this.#rejectDrain(error);
    this.#onError?.(error);
  }

  #rejectDrain(error: Error): void {
    const drain = this.#drain;
    this.#drain = undefined;
    if (drain) {
      // The caller may have dropped the promise: do not turn that into an unhandled rejection.
      drain.promise.catch(ignore);
      drain.reject(error);
    }
  }
}

function writeFailed(cause: Error): ConnectionError {
  return new ConnectionError(ConnectionErrorKinds.WriteFailed, `Write to the output stream failed: ${cause.message}`, {
    cause,
  });
}

function ignore(): void {}
