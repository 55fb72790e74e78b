import type { Readable } from "node:stream";
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import { ConnectionError, ConnectionErrorKinds, rateLimitWarnings } from "@acp-kit/protocol/jsonrpc";
import { NdjsonLineDecoder } from "./line-decoder.js";

export interface LineReaderOptions {
  maxLineBytes?: number;
  logger?: Logger;
}

export interface LineReaderHandlers {
  /** One line. Returning a promise pauses the stream until it settles. */
  line(text: string): void | PromiseLike<void>;
  /**
   * Called once: without an argument when the input ended and every line was delivered, with
   * a `ConnectionError` when the input failed or a line was too long.
   */
  end(error?: ConnectionError): void;
}

export interface LineReader {
  /** Bytes received but not yet delivered as lines. */
  readonly bufferedBytes: number;
  /** Detach from the stream and drop what is buffered; `end` is not called afterwards. */
  stop(): void;
}

/**
 * Reads NDJSON lines from a Node `Readable` and hands them to `handlers.line` in order,
 * pausing the stream while a returned promise is pending.
 */
export function readLines(input: Readable, handlers: LineReaderHandlers, options: LineReaderOptions = {}): LineReader {
  return new StreamLineReader(input, handlers, options);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && "then" in value && typeof value.then === "function";
}

function ignore(): void {}

class StreamLineReader implements LineReader {
  readonly #input: Readable;
  readonly #handlers: LineReaderHandlers;
  readonly #decoder: NdjsonLineDecoder;
  readonly #logger: Logger | undefined;
  #invalidUtf8Seen = 0;
  /** A handler's promise is pending: the stream is paused, nothing more is delivered. */
  #waiting = false;
  #inputEnded = false;
  #done = false;

  constructor(input: Readable, handlers: LineReaderHandlers, options: LineReaderOptions) {
    this.#input = input;
    this.#handlers = handlers;
    this.#decoder = new NdjsonLineDecoder(options.maxLineBytes);
    this.#logger = options.logger === undefined ? undefined : rateLimitWarnings(options.logger);
    input.on("data", this.#onData);
    input.on("end", this.#onEnd);
    // A stream destroyed without 'end' (socket reset, pipe closed) ends the input as well.
    input.on("close", this.#onEnd);
    input.on("error", this.#onError);
    input.resume();
    // A stream that already ended emits nothing more.
    if (input.readableEnded || input.destroyed) queueMicrotask(this.#onEnd);
  }

  get bufferedBytes(): number {
    return this.#decoder.bufferedBytes;
  }

  stop(): void {
    if (this.#done) return;
    this.#done = true;
    const input = this.#input;
    input.off("data", this.#onData);
    input.off("end", this.#onEnd);
    input.off("close", this.#onEnd);
    input.off("error", this.#onError);
    // Keep an error listener so that a late stream error is not an uncaught exception.
    input.on("error", ignore);
    input.pause();
    this.#decoder.clear();
  }

  #finish(error?: ConnectionError): void {
    if (this.#done) return;
    this.stop();
    this.#handlers.end(error);
  }

  /** Delivers lines until the decoder has none, a handler made us wait, or the reader is done. */
  #pump(): void {
    while (!this.#waiting && !this.#done) {
      const line = this.#nextLine();
      if (line === undefined) {
        if (this.#inputEnded && !this.#done) this.#finish();
        return;
      }
      this.#reportInvalidUtf8();
      this.#deliver(line);
    }
  }

  /** The next complete line; undefined when there is none yet (or the line was too long). */
  #nextLine(): string | undefined {
    try {
      return this.#decoder.next();
    } catch (error) {
      // The decoder's only failure: a line past `maxLineBytes` (a `payload_too_large` error).
      this.#finish(
        error instanceof ConnectionError
          ? error
          : new ConnectionError(ConnectionErrorKinds.ProtocolViolation, "Could not read a line", { cause: error }),
      );
      return undefined;
    }
  }

  #reportInvalidUtf8(): void {
    const seen = this.#decoder.invalidUtf8Lines;
    if (seen === this.#invalidUtf8Seen) return;
    this.#invalidUtf8Seen = seen;
    this.#logger?.warn?.("stdio transport: a line with invalid UTF-8 was received; replaced with U+FFFD", {
      lines: seen,
    });
  }

  /** Hands one line to the handler; a promise it returns pauses the stream until it settles. */
  #deliver(line: string): void {
    let pending: unknown;
    try {
      pending = this.#handlers.line(line);
    } catch (error) {
      // A sink must not throw; the line is lost for it but the stream goes on.
      this.#logger?.error?.("stdio transport: message handler threw", error);
      return;
    }
    if (!isThenable(pending)) return;
    this.#waiting = true;
    this.#input.pause();
    pending.then(this.#resume, (error: unknown) => {
      this.#logger?.warn?.("stdio transport: message handler rejected", error);
      this.#resume();
    });
  }

  readonly #resume = (): void => {
    this.#waiting = false;
    this.#pump();
    if (!this.#waiting && !this.#done && !this.#inputEnded) this.#input.resume();
  };

  readonly #onData = (chunk: Buffer | string): void => {
    if (this.#done) return;
    this.#decoder.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk);
    if (!this.#waiting) this.#pump();
  };

  readonly #onEnd = (): void => {
    if (this.#inputEnded) return;
    this.#inputEnded = true;
    this.#decoder.end();
    if (!this.#waiting) this.#pump();
  };

  readonly #onError = (error: Error): void => {
    this.#finish(
      new ConnectionError(ConnectionErrorKinds.Closed, `Input stream failed: ${error.message}`, { cause: error }),
    );
  };
}
