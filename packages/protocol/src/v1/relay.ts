/**
 * A transport that sits between a connection and the real transport and rewrites JSON-RPC
 * messages in both directions: the seam where a v2 connection meets a v1 peer. Until a subclass
 * calls `translate(translator)` payloads go through untouched (one property check per message);
 * after it, every message is parsed and handed to the translator's `fromLocal` / `fromPeer`,
 * which forward, rewrite, answer or synthesize with `toPeer` / `toLocal`.
 */

import { isRecord } from "../jsonrpc/records.js";
import type { Transport, TransportSink } from "../jsonrpc/transport.js";

/** One JSON-RPC message as it travels (request, notification or response). */
export interface WireMessage {
  jsonrpc: "2.0";
  id?: string | number | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** A request id as it travels (ACP's: a string or an integer). */
export type WireId = string | number;

/** Where a translator hands a translated message: one side of the relay. */
export type WireSend = (message: WireMessage) => void | Promise<void>;

/** What a translator does with each message once translation started. */
export interface Translator {
  fromLocal(message: WireMessage): void | Promise<void>;
  fromPeer(message: WireMessage): void | Promise<void>;
}

/** `value[key]` when `value` is a JSON object, else undefined. */
export function readField(value: unknown, key: string): unknown {
  return isRecord(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

function isWireError(value: unknown): value is NonNullable<WireMessage["error"]> {
  return isRecord(value) && typeof value.code === "number" && typeof value.message === "string";
}

/** A JSON-RPC 2.0 message: its fields, where present, of the types JSON-RPC gives them. */
function isWireMessage(value: unknown): value is WireMessage {
  if (!isRecord(value) || value.jsonrpc !== "2.0") return false;
  const { id, method, error } = value;
  return (
    (id === undefined || id === null || typeof id === "string" || typeof id === "number") &&
    (method === undefined || typeof method === "string") &&
    (error === undefined || isWireError(error))
  );
}

function parse(payload: string): WireMessage[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  const list: unknown[] = Array.isArray(value) ? value : [value];
  if (list.length === 0) return undefined;
  const messages = list.filter(isWireMessage);
  return messages.length === list.length ? messages : undefined;
}

export abstract class RelayTransport implements Transport {
  readonly #inner: Transport;
  #sink: TransportSink | undefined;
  #translator: Translator | undefined;
  /** Deliveries to the local connection wait on the previous one when it asked to pause. */
  #delivering: Promise<void> | undefined;

  constructor(inner: Transport) {
    this.#inner = inner;
  }

  start(sink: TransportSink): void {
    this.#sink = sink;
    this.#inner.start({
      message: (payload) => {
        const translator = this.#translator;
        return translator === undefined ? this.inspectPeer(payload) : this.#fromPeerPayload(translator, payload);
      },
      closed: (error) => {
        this.peerClosed();
        sink.closed(error);
      },
    });
  }

  send(payload: string): void | Promise<void> {
    const translator = this.#translator;
    if (translator === undefined) return this.#inner.send(this.inspectLocal(payload));
    const messages = parse(payload);
    if (messages === undefined) return this.#inner.send(payload);
    return settleAll(messages.map((message) => translator.fromLocal(message)));
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  /** From now on every message is translated by `translator`. */
  protected translate(translator: Translator): void {
    this.#translator = translator;
  }

  /** Sees (and may rewrite) a local payload before translation starts. */
  protected inspectLocal(payload: string): string {
    return payload;
  }

  /** Sees a peer payload before translation starts; by default delivers it untouched. */
  protected inspectPeer(payload: string): void | PromiseLike<void> {
    return this.deliverRaw(payload);
  }

  /** Called once when the peer's side of the transport ended. */
  protected peerClosed(): void {}

  /** Sends a message to the peer. */
  protected toPeer(message: WireMessage): void | Promise<void> {
    return this.#inner.send(JSON.stringify(message));
  }

  /** Delivers a message to the local connection, in order. */
  protected toLocal(message: WireMessage): void | Promise<void> {
    return this.deliverRaw(JSON.stringify(message));
  }

  protected deliverRaw(payload: string): void | Promise<void> {
    const sink = this.#sink;
    if (sink === undefined) return;
    if (this.#delivering !== undefined) {
      const next: Promise<void> = this.#delivering.then(() => sink.message(payload));
      this.#delivering = next;
      const clear = (): void => {
        if (this.#delivering === next) this.#delivering = undefined;
      };
      next.then(clear, clear);
      return next;
    }
    const result = sink.message(payload);
    if (result === undefined) return;
    const pending = Promise.resolve(result);
    this.#delivering = pending;
    const clear = (): void => {
      if (this.#delivering === pending) this.#delivering = undefined;
    };
    pending.then(clear, clear);
    return pending;
  }

  #fromPeerPayload(translator: Translator, payload: string): void | Promise<void> {
    const messages = parse(payload);
    if (messages === undefined) return this.deliverRaw(payload);
    return settleAll(messages.map((message) => translator.fromPeer(message)));
  }
}

/** Undefined when nothing waits, else one promise for everything that does. */
export function settleAll(results: readonly (void | PromiseLike<void>)[]): void | Promise<void> {
  const waiting = results.filter((r): r is PromiseLike<void> => r !== undefined);
  if (waiting.length === 0) return;
  return Promise.all(waiting).then(() => undefined);
}

/** Parses one payload into its messages (a batch gives several); undefined when it is not JSON-RPC-shaped. */
export function parseWire(payload: string): WireMessage[] | undefined {
  return parse(payload);
}
