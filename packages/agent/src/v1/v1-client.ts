/**
 * Serving a v1 client: what `ServingTransport` loads (with `import()`, so a bundler splits it
 * off) once a client asked for protocol version 1, and never for a v2 client. It reads the v1
 * `initialize`, turns the agent's answer into v1, and starts the projection that translates
 * every message after it. It brings the v1 decoders along.
 */
import { decoders } from "@acp-kit/protocol";
import {
  decodeErrorText,
  type InitializeRequest as V1InitializeRequest,
  decoders as v1Decoders,
  type WireMessage,
} from "@acp-kit/protocol/v1";
import { type ProjectionIo, V1ClientProjection } from "./projection.js";
import { initializeParamsToV2, initializeResultToV1 } from "./values.js";

/** A v1 `initialize` read: its params as sent, and in the v2 shape the agent reads. */
export interface V1Initialize {
  readonly params: V1InitializeRequest;
  readonly v2Params: ReturnType<typeof initializeParamsToV2>;
}

/** Undefined when the params are not valid v1: those go on as they are, and the agent answers -32602 with the path. */
export function readV1Initialize(params: unknown): V1Initialize | undefined {
  const decoded = v1Decoders.initialize.params(params);
  return decoded.ok ? { params: decoded.value, v2Params: initializeParamsToV2(decoded.value) } : undefined;
}

/** The agent answered a v1 `initialize`: the projection from now on, and the answer as the client reads it. */
export function startV1Client(
  io: ProjectionIo,
  initialize: V1Initialize,
  answer: WireMessage,
  payload: string,
): { projection: V1ClientProjection; payload: string } {
  const projection = new V1ClientProjection(io, initialize.params.clientCapabilities ?? {});
  const result = decoders.initialize.result(answer.result);
  if (result.ok)
    return { projection, payload: JSON.stringify({ ...answer, result: initializeResultToV1(result.value) }) };
  // The agent's own answer was validated on its way out; one that is not goes on as it is.
  io.logger.warn?.(`Sent an initialize answer a v1 client cannot read: ${decodeErrorText(result.error)}`);
  return { projection, payload };
}
