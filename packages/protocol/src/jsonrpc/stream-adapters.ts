/**
 * Adapters between our `Transport` (text payloads, callback sink) and a web-stream pair of
 * message objects, `{ readable, writable }`: the `Stream` shape the official ACP SDK's
 * connections take. With them our transports serve the SDK's connections and theirs ours.
 */
import { ConnectionError, ConnectionErrorKinds, RequestError } from "./errors.js";
import { errorResponse, type JsonRpcMessage } from "./messages.js";
import type { Transport, TransportSink } from "./transport.js";

/** A duplex pair of JSON-RPC message objects (one object per message). */
export interface JsonRpcMessageStream {
  readable: ReadableStream<JsonRpcMessage>;
  writable: WritableStream<JsonRpcMessage>;
}

/** A `Transport` that reads message objects from `stream.readable` and writes to `stream.writable`. */
export function transportFromStream(stream: JsonRpcMessageStream): Transport {
  let sink: TransportSink | undefined;
  let ended = false;
  let closing: Promise<void> | undefined;
  let writer: WritableStreamDefaultWriter<JsonRpcMessage> | undefined;
  let reader: ReadableStreamDefaultReader<JsonRpcMessage> | undefined;
  let failure: ConnectionError | undefined;

  const end = (error: ConnectionError | undefined): void => {
    if (ended) return;
    ended = true;
    failure = error;
    sink?.closed(error);
  };

  const fail = (kind: "write_failed" | "closed", message: string, cause: unknown): void => {
    if (ended) return;
    end(
      new ConnectionError(
        kind === "write_failed" ? ConnectionErrorKinds.WriteFailed : ConnectionErrorKinds.Closed,
        message,
        { cause },
      ),
    );
    reader?.cancel(cause).catch(() => undefined);
    writer?.abort(cause).catch(() => undefined);
  };

  const readLoop = async (
    target: TransportSink,
    source: ReadableStreamDefaultReader<JsonRpcMessage>,
  ): Promise<void> => {
    try {
      for (;;) {
        const { value, done } = await source.read();
        if (done || ended) break;
        const pause = target.message(JSON.stringify(value));
        if (pause !== undefined) await pause;
      }
      end(undefined);
    } catch (error) {
      if (closing !== undefined) end(undefined);
      else fail("closed", "The readable stream failed", error);
    }
  };

  return {
    start(target) {
      if (sink !== undefined) throw new Error("Transport.start() was already called");
      sink = target;
      if (ended) {
        // Closed before it started: the sink still hears about the end, once.
        queueMicrotask(() => target.closed(failure));
        return;
      }
      reader = stream.readable.getReader();
      void readLoop(target, reader);
    },
    send(payload) {
      if (ended || closing !== undefined) throw failure ?? ConnectionError.closed("Stream transport is closed");
      let message: JsonRpcMessage;
      try {
        // Untyped by nature (`JSON.parse` is `any`): the payload is one a connection serialized.
        message = JSON.parse(payload);
      } catch (error) {
        throw new ConnectionError(ConnectionErrorKinds.InvalidOutgoing, "Refusing to send a payload that is not JSON", {
          cause: error,
        });
      }
      writer ??= stream.writable.getWriter();
      writer
        .write(message)
        .catch((error: unknown) => fail("write_failed", "Could not write to the writable stream", error));
      const desired = writer.desiredSize;
      if (desired !== null && desired <= 0) return writer.ready.then(() => undefined);
      return undefined;
    },
    close() {
      closing ??= (async () => {
        const w = writer ?? (stream.writable.locked ? undefined : stream.writable.getWriter());
        try {
          await w?.close();
        } catch {
          // Already errored or closed: nothing left to flush.
        }
        try {
          await (reader ?? (stream.readable.locked ? undefined : stream.readable))?.cancel();
        } catch {
          // Same.
        }
        end(undefined);
      })();
      return closing;
    },
  };
}

/** How many parsed messages may wait in the readable before the transport is asked to pause. */
const READABLE_HIGH_WATER_MARK = 64;

/**
 * A `{ readable, writable }` message-object stream over one of our transports. Payloads that are
 * not JSON are answered with -32700, and non-object values with -32600, here: the stream only
 * carries message objects (and arrays, which the consumer answers per its own batch policy).
 */
export function streamFromTransport(transport: Transport): JsonRpcMessageStream {
  let resumeReading: (() => void) | undefined;
  const reply = (error: RequestError): void => {
    try {
      const sent = transport.send(JSON.stringify(errorResponse(null, error)));
      if (sent !== undefined) sent.catch(() => undefined);
    } catch {
      // Closed: the peer is gone, nobody to tell.
    }
  };

  // False once the readable was closed, errored or cancelled: later payloads go nowhere.
  let open = true;
  const readable = new ReadableStream<JsonRpcMessage>(
    {
      start(controller) {
        transport.start({
          message(payload) {
            if (!open) return;
            // `JSON.parse` returns `any`: an object goes on as a message, unchecked. The consumer
            // of the stream validates each one (and answers arrays per its own batch policy).
            let value: ReturnType<typeof JSON.parse>;
            try {
              value = JSON.parse(payload);
            } catch {
              reply(RequestError.parseError());
              return;
            }
            if (typeof value !== "object" || value === null) {
              reply(RequestError.invalidRequest("Invalid request: expected a JSON-RPC message object"));
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
      },
      pull() {
        const resume = resumeReading;
        resumeReading = undefined;
        resume?.();
      },
      cancel() {
        open = false;
        resumeReading?.();
        return transport.close();
      },
    },
    { highWaterMark: READABLE_HIGH_WATER_MARK },
  );

  const writable = new WritableStream<JsonRpcMessage>({
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

  return { readable, writable };
}
