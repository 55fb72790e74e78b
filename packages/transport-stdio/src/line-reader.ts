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
  const decoder = new NdjsonLineDecoder(options.maxLineBytes);
  const logger = options.logger === undefined ? undefined : rateLimitWarnings(options.logger);
  let invalidUtf8Seen = 0;
  let waiting = false;
  let inputEnded = false;
  let done = false;

  const finish = (error?: ConnectionError): void => {
    if (done) return;
    stop();
    handlers.end(error);
  };

  const pump = (): void => {
    while (!waiting && !done) {
      let line: string | undefined;
      try {
        line = decoder.next();
      } catch (error) {
        finish(error as ConnectionError);
        return;
      }
      if (line === undefined) {
        if (inputEnded) finish();
        return;
      }
      if (decoder.invalidUtf8Lines !== invalidUtf8Seen) {
        invalidUtf8Seen = decoder.invalidUtf8Lines;
        logger?.warn?.("stdio transport: a line with invalid UTF-8 was received; replaced with U+FFFD", {
          lines: invalidUtf8Seen,
        });
      }
      let pending: void | PromiseLike<void>;
      try {
        pending = handlers.line(line);
      } catch (error) {
        // A sink must not throw; the line is lost for it but the stream goes on.
        logger?.error?.("stdio transport: message handler threw", error);
        continue;
      }
      if (pending !== undefined && typeof (pending as PromiseLike<void>).then === "function") {
        waiting = true;
        input.pause();
        (pending as PromiseLike<void>).then(resume, (error: unknown) => {
          logger?.warn?.("stdio transport: message handler rejected", error);
          resume();
        });
      }
    }
  };

  const resume = (): void => {
    waiting = false;
    pump();
    if (!waiting && !done && !inputEnded) input.resume();
  };

  const onData = (chunk: Buffer | string): void => {
    if (done) return;
    decoder.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk);
    if (!waiting) pump();
  };
  const onEnd = (): void => {
    if (inputEnded) return;
    inputEnded = true;
    decoder.end();
    if (!waiting) pump();
  };
  const onError = (error: Error): void => {
    finish(new ConnectionError(ConnectionErrorKinds.Closed, `Input stream failed: ${error.message}`, { cause: error }));
  };

  function stop(): void {
    if (done) return;
    done = true;
    input.off("data", onData);
    input.off("end", onEnd);
    input.off("close", onEnd);
    input.off("error", onError);
    // Keep an error listener so that a late stream error is not an uncaught exception.
    input.on("error", ignore);
    input.pause();
    decoder.clear();
  }

  input.on("data", onData);
  input.on("end", onEnd);
  // A stream destroyed without 'end' (socket reset, pipe closed) ends the input as well.
  input.on("close", onEnd);
  input.on("error", onError);
  input.resume();
  // A stream that already ended emits nothing more.
  if (input.readableEnded || input.destroyed) queueMicrotask(onEnd);

  return {
    get bufferedBytes() {
      return decoder.bufferedBytes;
    },
    stop,
  };
}

function ignore(): void {}
