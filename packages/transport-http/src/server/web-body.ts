import type { Receiver } from "./outbound-stream.js";

/**
 * A receiver's events as a fetch response body: pull-driven (no high-water mark), so bytes leave
 * the stream's queue only as the client reads them.
 */
export function sseBody(receiver: Receiver): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      start: (controller) =>
        receiver.connect({
          write(chunk) {
            controller.enqueue(chunk);
            return (controller.desiredSize ?? 0) > 0;
          },
          end() {
            try {
              controller.close();
            } catch {
              // Already closed or errored by the consumer.
            }
          },
        }),
      pull: () => receiver.resume(),
      cancel: () => receiver.cancel(),
    },
    { highWaterMark: 0 },
  );
}
