/**
 * Version negotiation on the client's side, per the initialization docs: the client asks for
 * its latest version (2); the agent answers the version it will speak. This transport sits
 * under the client's connection, adds the v1 spelling of the client's identity and
 * capabilities to the `initialize` request (a v1 agent reads `clientInfo`/`clientCapabilities`,
 * a v2 agent ignores them), and reads the answer for the version it claims: 2 goes through
 * untouched and the transport steps aside; 1 is decoded with the v1 decoders and from then on
 * every message is translated by `V1AgentBridge`; anything else is refused with an error
 * naming both sides' versions.
 */
import { type MissingCapability, PROTOCOL_VERSION } from "@acp-kit/protocol";
import { decodeInitializeRequest } from "@acp-kit/protocol/decoders";
import { ConnectionError, ConnectionErrorKinds, type Logger, type Transport } from "@acp-kit/protocol/jsonrpc";
import type { InitializeResponse as V1InitializeResponse } from "@acp-kit/protocol/v1";
import {
  parseWire,
  RelayTransport,
  readField,
  PROTOCOL_VERSION as V1_PROTOCOL_VERSION,
} from "@acp-kit/protocol/v1/relay";
import type { V1AgentBridge } from "./bridge.js";
import { type V1ClientHandlers, v1ClientCapabilities } from "./client-handlers.js";

/** The protocol versions this client speaks, newest first. */
export const CLIENT_PROTOCOL_VERSIONS: readonly number[] = [PROTOCOL_VERSION, V1_PROTOCOL_VERSION];

export interface NegotiationOptions {
  v1Handlers?: V1ClientHandlers;
  logger?: Logger;
}

export class NegotiatingTransport extends RelayTransport {
  readonly #handlers: V1ClientHandlers;
  readonly #logger: Logger;
  #initializeId: string | number | undefined;
  #settled = false;
  #bridge: V1AgentBridge | undefined;
  /** The version the agent answered and this client speaks; undefined before (or when refused). */
  protocolVersion: number | undefined;
  /** A v1 agent's `initialize` answer as received (decoded by v1's rules); undefined for a v2 agent. */
  v1InitializeResponse: V1InitializeResponse | undefined;
  /** Set when the agent's answer cannot be used: the error `connectToAgent` reports. */
  failure: ConnectionError | undefined;

  constructor(inner: Transport, options: NegotiationOptions = {}) {
    super(inner);
    this.#handlers = options.v1Handlers ?? {};
    this.#logger = options.logger ?? {};
  }

  protected override inspectLocal(payload: string): string {
    if (this.#settled || this.#initializeId !== undefined) return payload;
    const message = parseWire(payload)?.[0];
    if (message?.method !== "initialize" || message.id === undefined || message.id === null) return payload;
    this.#initializeId = message.id;
    const decoded = decodeInitializeRequest(message.params);
    // What the client sends was validated on its way out; a request that is not goes on as it is.
    if (!decoded.ok) return payload;
    const params = decoded.value;
    const v1Fields = {
      clientInfo: params.info,
      clientCapabilities: v1ClientCapabilities(this.#handlers, params.capabilities ?? undefined),
    };
    return JSON.stringify({ ...message, params: { ...params, ...v1Fields } });
  }

  protected override inspectPeer(payload: string): void | PromiseLike<void> {
    if (this.#settled || this.#initializeId === undefined) return this.deliverRaw(payload);
    const message = parseWire(payload)?.[0];
    if (message === undefined || message.method !== undefined || message.id !== this.#initializeId)
      return this.deliverRaw(payload);
    this.#settled = true;
    if (message.error !== undefined) return this.deliverRaw(payload);
    const answered = readField(message.result, "protocolVersion");
    if (answered === PROTOCOL_VERSION) {
      this.protocolVersion = PROTOCOL_VERSION;
      return this.deliverRaw(payload);
    }
    if (answered !== V1_PROTOCOL_VERSION) {
      this.failure = new ConnectionError(
        ConnectionErrorKinds.ProtocolViolation,
        `The agent answered initialize with protocol version ${JSON.stringify(answered)}, which this client cannot speak (it speaks ${CLIENT_PROTOCOL_VERSIONS.join(" and ")}; it asked for ${PROTOCOL_VERSION})`,
        {
          details: {
            requestedVersion: PROTOCOL_VERSION,
            answeredVersion: answered,
            supportedVersions: [...CLIENT_PROTOCOL_VERSIONS],
          },
        },
      );
      return this.deliverRaw(payload);
    }
    // Loaded on a v1 answer only (a bundler splits it off). Returning the promise pauses the
    // transport's reading until the bridge is in place, so no later message overtakes it.
    return import("./v1-agent.js").then(({ startV1Session }) => {
      const started = startV1Session(
        { toPeer: (m) => this.toPeer(m), toLocal: (m) => this.toLocal(m), logger: this.#logger },
        message.result,
        this.#handlers,
      );
      if (!started.ok) {
        this.failure = new ConnectionError(
          ConnectionErrorKinds.ProtocolViolation,
          `Invalid v1 result for initialize at ${started.path || "/"}: ${started.reason} (the agent answered protocol version 1)`,
          { details: { answeredVersion: 1, path: started.path, reason: started.reason } },
        );
        return this.deliverRaw(payload);
      }
      this.protocolVersion = V1_PROTOCOL_VERSION;
      this.v1InitializeResponse = started.v1Result;
      this.#bridge = started.bridge;
      this.translate(started.bridge);
      return this.toLocal({ jsonrpc: "2.0", id: message.id, result: started.v2Result });
    });
  }

  /**
   * What the v1 agent did not advertise for `method`, when a v1 agent was met (v1 gates some
   * methods on markers v2 does not have); `undefined` otherwise.
   */
  missingCapability(method: string): MissingCapability | undefined {
    return this.#bridge?.missing(method);
  }

  protected override peerClosed(): void {
    this.#bridge?.closed();
  }
}
