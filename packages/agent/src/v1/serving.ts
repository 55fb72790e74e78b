/**
 * Version negotiation on the agent's side. This transport sits under the agent's connection
 * and watches the client's `initialize`: a client asking for version 1 is a v1 client, its
 * params are rewritten to the v2 shape the agent reads (the version stays 1, and the agent
 * answers 1), the answer is sent in v1 form, and from then on every message goes through
 * `V1ClientProjection`. Any other client is served untouched, and the transport steps aside as
 * soon as its `initialize` was answered.
 */
import {
  decoders,
  negotiateProtocolVersion,
  PROTOCOL_VERSION,
  unsupportedProtocolVersionError,
} from "@acp-kit/protocol";
import type { Logger, Transport } from "@acp-kit/protocol/jsonrpc";
import {
  decodeErrorText,
  parseWire,
  RelayTransport,
  readField,
  PROTOCOL_VERSION as V1_PROTOCOL_VERSION,
  type InitializeRequest as V1InitializeRequest,
  decoders as v1Decoders,
} from "@acp-kit/protocol/v1";
import { V1ClientProjection } from "./projection.js";
import { initializeParamsToV2, initializeResultToV1 } from "./values.js";

/** The versions an agent serves, newest first: v2, and v1 through the projection. */
export const AGENT_PROTOCOL_VERSIONS: readonly number[] = [PROTOCOL_VERSION, V1_PROTOCOL_VERSION];

/** The version to answer: 1 for a v1 client, else v2's rule; -32022 naming both below 1. */
export function negotiateServedVersion(requested: number): number {
  if (requested === V1_PROTOCOL_VERSION) return V1_PROTOCOL_VERSION;
  if (requested < V1_PROTOCOL_VERSION) throw unsupportedProtocolVersionError(requested, AGENT_PROTOCOL_VERSIONS);
  return negotiateProtocolVersion(requested);
}

export class ServingTransport extends RelayTransport {
  readonly #logger: Logger;
  /** The v1 `initialize` waiting for the agent's answer. */
  #v1Initialize: { id: string | number; params: V1InitializeRequest } | undefined;
  #settled = false;

  constructor(inner: Transport, logger: Logger = {}) {
    super(inner);
    this.#logger = logger;
  }

  protected override inspectPeer(payload: string): void | PromiseLike<void> {
    if (this.#settled) return this.deliverRaw(payload);
    const message = parseWire(payload)?.[0];
    if (message?.method !== "initialize" || message.id === undefined || message.id === null)
      return this.deliverRaw(payload);
    const requested = readField(message.params, "protocolVersion");
    if (requested !== V1_PROTOCOL_VERSION) return this.deliverRaw(payload);
    const decoded = v1Decoders.initialize.params(message.params);
    // Invalid v1 params go on as they are: the agent answers them -32602 with the path.
    if (!decoded.ok) return this.deliverRaw(payload);
    this.#v1Initialize = { id: message.id, params: decoded.value };
    return this.toLocal({ ...message, params: initializeParamsToV2(decoded.value) });
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
    if (message.error !== undefined) return payload;
    this.#settled = true;
    this.translate(
      new V1ClientProjection(
        { toPeer: (m) => this.toPeer(m), toLocal: (m) => this.toLocal(m), logger: this.#logger },
        pending.params.clientCapabilities ?? {},
      ),
    );
    const answer = decoders.initialize.result(message.result);
    if (answer.ok) return JSON.stringify({ ...message, result: initializeResultToV1(answer.value) });
    // The agent's own answer was validated on its way out; one that is not goes on as it is.
    this.#logger.warn?.(`Sent an initialize answer a v1 client cannot read: ${decodeErrorText(answer.error)}`);
    return payload;
  }
}
