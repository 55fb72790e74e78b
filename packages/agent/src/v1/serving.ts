/**
 * Version negotiation on the agent's side. This transport sits under the agent's connection
 * and watches the client's `initialize`: a client asking for version 1 is a v1 client, its
 * params are rewritten to the v2 shape the agent reads (the version stays 1, and the agent
 * answers 1), the answer is sent in v1 form, and from then on every message goes through
 * `V1ClientProjection`. Any other client is served untouched, and the transport steps aside as
 * soon as its `initialize` was answered.
 *
 * Everything v1 beyond the version number is in `./v1-client.js`, imported only when a v1
 * client is served, so a v2 client never loads the projection nor the v1 decoders. From a v1
 * `initialize` until the agent answered it, the client's later messages are held, in arrival
 * order: the chunk may still be loading, and they are v1 messages the projection must read
 * (a client that does not wait for the answer). Holding them answers the transport with a
 * pending promise, so it stops reading meanwhile.
 */
import {
  ErrorCodes,
  negotiateProtocolVersion,
  PROTOCOL_VERSION,
  unsupportedProtocolVersionError,
} from "@acp-kit/protocol";
import type { Logger, Transport } from "@acp-kit/protocol/jsonrpc";
import {
  parseWire,
  RelayTransport,
  readField,
  settleAll,
  type Translator,
  PROTOCOL_VERSION as V1_PROTOCOL_VERSION,
  type WireMessage,
} from "@acp-kit/protocol/v1/relay";
import type { ProjectionIo } from "./projection.js";
import type { V1Initialize } from "./v1-client.js";

/** The versions an agent serves, newest first: v2, and v1 through the projection. */
export const AGENT_PROTOCOL_VERSIONS: readonly number[] = [PROTOCOL_VERSION, V1_PROTOCOL_VERSION];

/** The version to answer: 1 for a v1 client, else v2's rule; -32022 naming both below 1. */
export function negotiateServedVersion(requested: number): number {
  if (requested === V1_PROTOCOL_VERSION) return V1_PROTOCOL_VERSION;
  if (requested < V1_PROTOCOL_VERSION) throw unsupportedProtocolVersionError(requested, AGENT_PROTOCOL_VERSIONS);
  return negotiateProtocolVersion(requested);
}

type V1Client = typeof import("./v1-client.js");

/** A peer payload waiting for the v1 `initialize` to be answered, and the promise its transport waits on. */
interface Held {
  readonly payload: string;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

export class ServingTransport extends RelayTransport {
  readonly #logger: Logger;
  /** The v1 chunk, once a v1 client made it load. */
  #v1: V1Client | undefined;
  /** The v1 `initialize` waiting for the agent's answer. */
  #v1Initialize: { id: string | number; initialize: V1Initialize } | undefined;
  /** Set from a v1 `initialize` until it was answered: the peer payloads that came after it. */
  #held: Held[] | undefined;
  #settled = false;

  constructor(inner: Transport, logger: Logger = {}) {
    super(inner);
    this.#logger = logger;
  }

  protected override inspectPeer(payload: string): void | PromiseLike<void> {
    if (this.#held !== undefined) return this.#hold(payload);
    if (this.#settled) return this.deliverRaw(payload);
    const message = parseWire(payload)?.[0];
    if (message?.method !== "initialize" || message.id === undefined || message.id === null)
      return this.deliverRaw(payload);
    if (readField(message.params, "protocolVersion") !== V1_PROTOCOL_VERSION) return this.deliverRaw(payload);
    this.#held = [];
    const id = message.id;
    const v1 = this.#v1;
    if (v1 !== undefined) return this.#initializeV1(v1, id, message, payload);
    return import("./v1-client.js").then(
      (chunk) => {
        this.#v1 = chunk;
        return this.#initializeV1(chunk, id, message, payload);
      },
      (error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        this.#logger.error?.(`Could not load the v1 projection for a v1 client: ${reason}`);
        const refused = this.toPeer({
          jsonrpc: "2.0",
          id,
          error: { code: ErrorCodes.InternalError, message: `This agent could not load its v1 support: ${reason}` },
        });
        this.#release((held) => this.inspectPeer(held));
        return refused;
      },
    );
  }

  #initializeV1(v1: V1Client, id: string | number, message: WireMessage, payload: string): void | PromiseLike<void> {
    const initialize = v1.readV1Initialize(message.params);
    if (initialize === undefined) {
      // Invalid v1 params go on as they are: the agent answers them -32602 with the path.
      const delivered = this.deliverRaw(payload);
      this.#release((held) => this.inspectPeer(held));
      return delivered;
    }
    this.#v1Initialize = { id, initialize };
    return this.toLocal({ ...message, params: initialize.v2Params });
  }

  protected override inspectLocal(payload: string): string {
    if (this.#settled) return payload;
    const message = parseWire(payload)?.[0];
    if (message === undefined || message.method !== undefined) return payload;
    const pending = this.#v1Initialize;
    if (pending === undefined || message.id !== pending.id) {
      // The answer to a v2 initialize: nothing more to look at.
      if (readField(message.result, "protocolVersion") !== undefined) this.#settled = true;
      return payload;
    }
    this.#v1Initialize = undefined;
    const v1 = this.#v1;
    if (message.error !== undefined || v1 === undefined) {
      // Refused: what came after it is read afresh (it may be another initialize).
      this.#releaseAfterSend((held) => this.inspectPeer(held));
      return payload;
    }
    this.#settled = true;
    const io: ProjectionIo = { toPeer: (m) => this.toPeer(m), toLocal: (m) => this.toLocal(m), logger: this.#logger };
    const { projection, payload: answer } = v1.startV1Client(io, pending.initialize, message, payload);
    // Until the held payloads went on, what the client sends next queues behind them.
    this.translate({ fromLocal: (m) => projection.fromLocal(m), fromPeer: (m) => this.#hold(JSON.stringify(m)) });
    this.#releaseAfterSend((held) => {
      const messages = parseWire(held);
      if (messages === undefined) return this.deliverRaw(held);
      return settleAll(messages.map((m) => projection.fromPeer(m)));
    }, projection);
    return answer;
  }

  protected override peerClosed(): void {
    // The client is gone: nothing it sent after its initialize can be answered any more.
    this.#release(() => undefined);
  }

  #hold(payload: string): Promise<void> {
    const held = this.#held;
    // Only after the client left (peerClosed released the rest): there is no one to answer.
    if (held === undefined) return Promise.resolve();
    return new Promise((resolve, reject) => held.push({ payload, resolve, reject }));
  }

  /** The held payloads go on, in order, once the answer now being returned was sent. */
  #releaseAfterSend(through: (payload: string) => void | PromiseLike<void>, translator?: Translator): void {
    queueMicrotask(() => {
      if (translator !== undefined) this.translate(translator);
      this.#release(through);
    });
  }

  #release(through: (payload: string) => void | PromiseLike<void>): void {
    const held = this.#held;
    this.#held = undefined;
    for (const { payload, resolve, reject } of held ?? []) {
      try {
        Promise.resolve(through(payload)).then(resolve, reject);
      } catch (error) {
        reject(error);
      }
    }
  }
}
