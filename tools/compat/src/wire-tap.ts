// A transport that records every message both ways, so a cell can read what the peer really
// sent (the raw v1 initialize answer, the order of updates and permission requests).
import type { Transport, TransportSink } from "@acp-kit/protocol/jsonrpc";

export interface WireMessage {
  direction: "in" | "out";
  value: Record<string, unknown>;
}

export class WireTap implements Transport {
  readonly messages: WireMessage[] = [];
  readonly #inner: Transport;

  constructor(inner: Transport) {
    this.#inner = inner;
  }

  start(sink: TransportSink): void {
    this.#inner.start({
      message: (payload) => {
        this.#record("in", payload);
        return sink.message(payload);
      },
      closed: (error) => sink.closed(error),
    });
  }

  send(payload: string): void | Promise<void> {
    this.#record("out", payload);
    return this.#inner.send(payload);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  describePeer() {
    return this.#inner.describePeer?.() ?? { source: "agent" };
  }

  /** The result of the request this side sent with `method`, as the peer sent it. */
  resultOf(method: string): Record<string, unknown> | undefined {
    const request = this.messages.find((m) => m.direction === "out" && m.value.method === method);
    if (request === undefined) return undefined;
    const answer = this.messages.find(
      (m) => m.direction === "in" && m.value.id === request.value.id && !("method" in m.value),
    );
    return answer?.value.result as Record<string, unknown> | undefined;
  }

  #record(direction: "in" | "out", payload: string): void {
    try {
      this.messages.push({ direction, value: JSON.parse(payload) as Record<string, unknown> });
    } catch {
      this.messages.push({ direction, value: { unparsed: payload } });
    }
  }
}
