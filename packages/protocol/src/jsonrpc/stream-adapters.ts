/**
 * Adapters between our `Transport` (text payloads, callback sink) and a web-stream pair of
 * message objects, `{ readable, writable }`: the `Stream` shape the official ACP SDK's
 * connections take. With them our transports serve the SDK's connections and theirs ours.
 */
import { ConnectionError, type ConnectionErrorKind, ConnectionErrorKinds, RequestError } from "./errors.js";
import { errorResponse, type JsonRpcMessage } from "./messages.js";
import type { Transport, TransportSink } from "./transport.js";

/** A duplex pair of JSON-RPC message objects (one object per message). */
export interface JsonRpcMessageStream {
  readable: ReadableStream<JsonRpcMessage>;
  writable: WritableStream<JsonRpcMessage>;
}

/** A `Transport` that reads message objects from `stream.readable` and writes to `stream.writable`. */
export function transportFromStream(stream: JsonRpcMessageStream): Transport {
  return new StreamTransport(stream);
}

/** Our `Transport` over a message-object stream pair; it ends once, cleanly or with a `ConnectionError`. */
class StreamTransport implements Transport {
  readonly #stream: JsonRpcMessageStream;
  #sink: TransportSink | undefined;
  #ended = false;
  #closing: Promise<void> | undefined;
  #writer: WritableStreamDefaultWriter<JsonRpcMessage> | undefined;
  #reader: ReadableStreamDefaultReader<JsonRpcMessage> | undefined;
  #failure: ConnectionError | undefined;

  constructor(stream: JsonRpcMessageStream) {
    this.#stream = stream;
  }

  start(sink: TransportSink): void {
    if (this.#sink !== undefined) throw new Error("Transport.start() was already called");
    this.#sink = sink;
    if (this.#ended) {
      // Closed before it started: the sink still hears about the end, once.
      const failure = this.#failure;
      queueMicrotask(() => sink.closed(failure));
      return;
    }
    this.#reader = this.#stream.readable.getReader();
    void this.#readLoop(sink, this.#reader);
  }

  send(payload: string): void | Promise<void> {
    if (this.#ended || this.#closing !== undefined) {
      throw this.#failure ?? ConnectionError.closed("Stream transport is closed");
    }
    const message = parseOutgoing(payload);
    this.#writer ??= this.#stream.writable.getWriter();
    const writer = this.#writer;
    writer
      .write(message)
      .catch((error: unknown) =>
        this.#fail(ConnectionErrorKinds.WriteFailed, "Could not write to the writable stream", error),
      );
    const desired = writer.desiredSize;
    if (desired !== null && desired <= 0) return writer.ready.then(() => undefined);
    return undefined;
  }

  close(): Promise<void> {
    this.#closing ??= this.#closeStreams();
    return this.#closing;
  }

  /** Flushes and closes the writable, cancels the readable, then ends cleanly. */
  async #closeStreams(): Promise<void> {
    const { writable, readable } = this.#stream;
    try {
      await (this.#writer ?? (writable.locked ? undefined : writable.getWriter()))?.close();
    } catch {
      // Already errored or closed: nothing left to flush.
    }
    try {
      await (this.#reader ?? (readable.locked ? undefined : readable))?.cancel();
    } catch {
      // Same.
    }
    this.#end(undefined);
  }

  /** Hands each message to the sink, as text, waiting while the sink asks to pause. */
  async #readLoop(sink: TransportSink, source: ReadableStreamDefaultReader<JsonRpcMessage>): Promise<void> {
    try {
      for (;;) {
        const { value, done } = await source.read();
        if (done || this.#ended) break;
        const pause = sink.message(JSON.stringify(value));
        if (pause !== undefined) await pause;
      }
      this.#end(undefined);
    } catch (error) {
      if (this.#closing !== undefined) this.#end(undefined);
      else this.#fail(ConnectionErrorKinds.Closed, "The readable stream failed", error);
    }
  }

  #end(error: ConnectionError | undefined): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#failure = error;
    this.#sink?.closed(error);
  }

  /** Ends with a `ConnectionError` of `kind`, and gives up on both streams. */
  #fail(kind: ConnectionErrorKind, message: string, cause: unknown): void {
    if (this.#ended) return;
    this.#end(new ConnectionError(kind, message, { cause }));
    this.#reader?.cancel(cause).catch(() => undefined);
    this.#writer?.abort(cause).catch(() => undefined);
  }
}

/** The message object of an outgoing payload. */
function parseOutgoing(payload: string): JsonRpcMessage {
  try {
    // Untyped by nature (`JSON.parse` is `any`): the payload is one a connection serialized.
    return JSON.parse(payload);
  } catch (error) {
    throw new ConnectionError(ConnectionErrorKinds.InvalidOutgoing, "Refusing to send a payload that is not JSON", {
      cause: error,
    });
  }
}

/** How many parsed messages may wait in the readable before the transport is asked to pause. */
const READABLE_HIGH_WATER_MARK = 64;

/**
 * A `{ readable, writable }` message-object stream over one of our transports. Payloads that are
 * not JSON are answered with -32700, and non-object values with -32600, here: the stream only
 * carries message objects (and arrays, which the consumer answers per its own batch policy).
 */
export function streamFromTransport(transport: Transport): JsonRpcMessageStream {
  return { readable: readableOver(transport), writable: writableOver(transport) };
}

/** Answers a payload the stream cannot carry; the peer may be gone already. */
function replyWith(transport: Transport, error: RequestError): void {
  try {
    const sent = transport.send(JSON.stringify(errorResponse(null, error)));
    if (sent !== undefined) sent.catch(() => undefined);
  } catch {
    // Closed: the peer is gone, nobody to tell.
  }
}

/** What the transport receives, as message objects; a full readable pauses the transport. */
function readableOver(transport: Transport): ReadableStream<JsonRpcMessage> {
  let resumeReading: (() => void) | undefined;
  // False once the readable was closed, errored or cancelled: later payloads go nowhere.
  let open = true;
  const resume = (): void => {
    const resumed = resumeReading;
    resumeReading = undefined;
    resumed?.();
  };
  const sinkInto = (controller: ReadableStreamDefaultController<JsonRpcMessage>): TransportSink => ({
    message(payload) {
      if (!open) return;
      // `JSON.parse` returns `any`: an object goes on as a message, unchecked. The consumer
      // of the stream validates each one (and answers arrays per its own batch policy).
      let value: ReturnType<typeof JSON.parse>;
      try {
        value = JSON.parse(payload);
      } catch {
        replyWith(transport, RequestError.parseError());
        return;
      }
      if (typeof value !== "object" || value === null) {
        replyWith(transport, RequestError.invalidRequest("Invalid request: expected a JSON-RPC message object"));
        return;
      }
      try {
        controller.enqueue(value);
      } catch {
        // The consumer cancelled the readable between two payloads.
        open = false;
        return;
      }
      if ((controller.desiredSize ?? 1) <= 0) return new Promise<void>((resolve) => (resumeReading = resolve));
      return undefined;
    },
    closed(error) {
      if (!open) return;
      open = false;
      resumeReading?.();
      try {
        if (error === undefined) controller.close();
        else controller.error(error);
      } catch {
        // The consumer cancelled the readable already.
      }
    },
  });
  return new ReadableStream<JsonRpcMessage>(
    {
      start: (controller) => transport.start(sinkInto(controller)),
      pull: resume,
      cancel() {
        open = false;
        resumeReading?.();
        return transport.close();
      },
    },
    { highWaterMark: READABLE_HIGH_WATER_MARK },
  );
}

/** Message objects written go to the transport as text; closing or aborting closes it. */
function writableOver(transport: Transport): WritableStream<JsonRpcMessage> {
  return new WritableStream<JsonRpcMessage>({
    write(message) {
      const sent = transport.send(JSON.stringify(message));
      return sent === undefined ? undefined : sent;
    },
    close() {
      return transport.close();
    },
    abort() {
      return transport.close();
    },
  });
}
