/**
 * A transport wrapper that reports every payload in both directions, for `--json`. Each JSON-RPC
 * message becomes one compact JSON line (an inbound batch is split into its messages); a payload
 * that is not JSON is reported as a JSON string so every line stays parseable.
 */
import type { Transport, TransportSink } from "@acp-kit/protocol/jsonrpc";

export type WireDirection = "send" | "receive";

export function tapTransport(inner: Transport, onLine: (line: string, direction: WireDirection) => void): Transport {
  const report = (payload: string, direction: WireDirection) => {
    for (const line of wireLines(payload)) onLine(line, direction);
  };
  return {
    start(sink: TransportSink) {
      inner.start({
        message(payload) {
          report(payload, "receive");
          return sink.message(payload);
        },
        closed(error) {
          sink.closed(error);
        },
      });
    },
    send(payload) {
      report(payload, "send");
      return inner.send(payload);
    },
    close() {
      return inner.close();
    },
  };
}

/** The JSON lines for one payload: one per message. */
export function wireLines(payload: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return [JSON.stringify(payload)];
  }
  const messages = Array.isArray(value) && value.length > 0 ? value : [value];
  return messages.map((message) => JSON.stringify(message));
}
