import type { Readable, Writable } from "node:stream";
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import { ConnectionError, type Transport, type TransportSink } from "@acp-kit/protocol/jsonrpc";
import { readLines } from "./line-reader.js";
import { NdjsonWriter, type NdjsonWriterOptions, type WriteCoalescing } from "./ndjson-writer.js";
import { NdjsonTransportCore } from "./transport-core.js";

export interface NdjsonTransportOptions {
  /** Maximum bytes of one inbound line (default 32 MiB). Past it the transport closes with a `payload_too_large` error. */
  maxLineBytes?: number;
  /** When queued outbound lines are handed to the stream (default `"macrotask"`). */
  writeCoalescing?: WriteCoalescing;
  /** Outbound bytes past which `send` returns a promise (default: the stream's high-water mark). */
  highWaterMark?: number;
  /** End `output` when the transport closes (default `true`). */
  endOutput?: boolean;
  logger?: Logger;
  /** Called once when the transport ended, right after the sink was told (or would have been). */
  onEnd?: (error?: Error) => void;
  /** @internal used by the agent side to write around its stdout guard. */
  rawWrite?: NdjsonWriterOptions["rawWrite"];
}

/** A `Transport` over byte streams, with a view of its buffers. */
export interface NdjsonTransport extends Transport {
  /** Outbound bytes accepted by `send` and not yet taken by the operating system. */
  readonly bufferedBytes: number;
  /** Inbound bytes received and not yet delivered. */
  readonly inboundBufferedBytes: number;
  /** Whether the transport has ended (closed by either side or failed). */
  readonly isClosed: boolean;
  /** Hand outbound lines queued for coalescing to the stream now. */
  flush(): void;
  /** Runs `listener` right before each write to the stream (once per coalesced write). */
  onBeforeWrite(listener: () => void): () => void;
}

/**
 * NDJSON over any pair of Node byte streams: one JSON-RPC payload per `\n`-terminated UTF-8
 * line. The transport ends cleanly when `input` ends (after delivering every line), with a
 * `ConnectionError` when a stream fails or an inbound line is too long.
 */
export function ndjsonTransport(
  input: Readable,
  output: Writable,
  options: NdjsonTransportOptions = {},
): NdjsonTransport {
  const logger = options.logger;
  const endOutput = options.endOutput ?? true;
  let closing: Promise<void> | undefined;

  const writer = new NdjsonWriter(output, {
    coalescing: options.writeCoalescing,
    highWaterMark: options.highWaterMark,
    rawWrite: options.rawWrite,
    onError: (error) => finish(error),
    logger,
  });
  const core = new NdjsonTransportCore(writer);

  function finish(error?: Error): void {
    if (!core.end(error)) return;
    if (error) logger?.debug?.("stdio transport: closed with error", error);
    if (endOutput && !output.destroyed && !output.writableEnded) output.end();
    core.sink?.closed(error);
    options.onEnd?.(error);
  }

  return core.transport({
    start(newSink: TransportSink): void {
      if (!core.attach(newSink)) return;
      core.startReading(() =>
        readLines(
          input,
          { line: (text) => newSink.message(text), end: (error) => finish(error) },
          { maxLineBytes: options.maxLineBytes, logger },
        ),
      );
    },
    send(payload: string): void | Promise<void> {
      if (core.finished) throw core.sendRefusal(() => ConnectionError.closed("Cannot send: the transport is closed"));
      return writer.write(payload);
    },
    close(): Promise<void> {
      closing ??= (async () => {
        if (core.finished) return;
        // Stop reading first so nothing is delivered after close() was called.
        core.stopReading();
        await writer.end(endOutput);
        finish();
      })();
      return closing;
    },
  });
}
