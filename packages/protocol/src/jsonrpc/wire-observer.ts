/**
 * The wire tap: a callback that sees every message a `Connection` receives and sends, with its
 * direction, time, size and, for responses, how long the request took. The connection calls
 * it only when one is configured, so an untapped connection pays one `undefined` check per
 * inbound payload and nothing per outbound one.
 */

import { decorateTransport } from "./decorate-transport.js";
import { isRecord } from "./records.js";
import type { Transport, TransportSink } from "./transport.js";

/** One observed payload. */
export interface WireEvent {
  /** `in`: received from the peer; `out`: sent to it. */
  readonly direction: "in" | "out";
  /** Wall-clock time of the observation (`Date.now()`). */
  readonly time: number;
  /** UTF-8 size of the payload in bytes. */
  readonly bytes: number;
  /** The payload exactly as framed (one JSON-RPC message, or a batch). */
  readonly payload: string;
  /** The payload parsed; `undefined` when it is not JSON. */
  readonly message: unknown;
  /** Requests and notifications: their method. Responses: the method of the request they answer, when known. */
  readonly method?: string;
  /** Responses: milliseconds since the request they answer went the other way. */
  readonly durationMs?: number;
}

export type WireTap = (event: WireEvent) => void;

/** How many unanswered requests per direction are remembered for durations (the oldest are forgotten). */
const MAX_TRACKED_REQUESTS = 4096;

interface Started {
  method: string;
  at: number;
}

/** UTF-8 length without allocating an encoded copy. */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) {
      bytes += 1;
      continue;
    }
    // 3 bytes, or 4 for a surrogate pair (2 UTF-16 units); a lone surrogate encodes as U+FFFD (3).
    bytes += 2;
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  return bytes;
}

function safeParse(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    return undefined;
  }
}

/** A `WireEvent` whose byte size is counted only when read (most taps never read it). */
class ObservedPayload implements WireEvent {
  #bytes: number | undefined;
  readonly method?: string;
  readonly durationMs?: number;

  constructor(
    readonly direction: "in" | "out",
    readonly time: number,
    readonly payload: string,
    readonly message: unknown,
    method: string | undefined,
    durationMs: number | undefined,
  ) {
    if (method !== undefined) this.method = method;
    if (durationMs !== undefined) this.durationMs = durationMs;
  }

  get bytes(): number {
    this.#bytes ??= utf8Length(this.payload);
    return this.#bytes;
  }
}

/** Pairs requests with their responses across both directions and reports each payload to a tap. */
export class WireObserver {
  readonly #tap: WireTap;
  /** Requests we sent, by id: answered by an inbound response. */
  readonly #sent = new Map<unknown, Started>();
  /** Requests we received, by id: answered by an outbound response. */
  readonly #received = new Map<unknown, Started>();

  constructor(tap: WireTap) {
    this.#tap = tap;
  }

  /** A received payload and its parsed value (`undefined` when it is not JSON). */
  inbound(payload: string, message: unknown): void {
    this.#observe("in", payload, message, this.#received, this.#sent);
  }

  /** A sent payload. */
  outbound(payload: string): void {
    this.#observe("out", payload, safeParse(payload), this.#sent, this.#received);
  }

  /** `transport` with every outbound payload reported (inbound ones are the connection's to report). */
  observeOutbound(transport: Transport): Transport {
    return decorateTransport(transport, {
      send: (payload: string) => {
        this.outbound(payload);
        return transport.send(payload);
      },
    });
  }

  /** `transport` with every payload in both directions reported, for stacks that do not expose connection options. */
  observe(transport: Transport): Transport {
    return decorateTransport(this.observeOutbound(transport), {
      start: (sink: TransportSink) =>
        transport.start({
          message: (payload) => {
            this.inbound(payload, safeParse(payload));
            return sink.message(payload);
          },
          closed: (error) => sink.closed(error),
        }),
    });
  }

  #observe(
    direction: "in" | "out",
    payload: string,
    message: unknown,
    requestsThisWay: Map<unknown, Started>,
    requestsOtherWay: Map<unknown, Started>,
  ): void {
    const at = performance.now();
    let method: string | undefined;
    let durationMs: number | undefined;
    const entries = Array.isArray(message) ? message : [message];
    for (const entry of entries) {
      if (!isRecord(entry)) continue;
      if (typeof entry.method === "string") {
        method ??= entry.method;
        if (entry.id !== undefined && entry.id !== null) this.#track(requestsThisWay, entry.id, entry.method, at);
      } else if (entry.id !== undefined && entry.id !== null) {
        const started = requestsOtherWay.get(entry.id);
        if (started === undefined) continue;
        requestsOtherWay.delete(entry.id);
        method ??= started.method;
        durationMs ??= at - started.at;
      }
    }
    const event = new ObservedPayload(direction, Date.now(), payload, message, method, durationMs);
    try {
      this.#tap(event);
    } catch {
      // A failing observer must not break the connection it observes.
    }
  }

  #track(map: Map<unknown, Started>, id: unknown, method: string, at: number): void {
    if (map.size >= MAX_TRACKED_REQUESTS) map.delete(map.keys().next().value);
    map.set(id, { method, at });
  }
}

/** `transport` with every payload in both directions reported to `tap`. */
export function tapTransport(transport: Transport, tap: WireTap): Transport {
  return new WireObserver(tap).observe(transport);
}
