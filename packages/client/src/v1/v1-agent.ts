/**
 * What the client needs only once an agent answered protocol version 1: the v1 decoders, the
 * bridge and the value mappings. `NegotiatingTransport` imports this module on that answer, so
 * a bundler splits it off and a v2-only app never loads it.
 */
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import {
  type InitializeResponse as V1InitializeResponse,
  decoders as v1Decoders,
  type WireMessage,
} from "@acp-kit/protocol/v1";
import { V1AgentBridge } from "./bridge.js";
import type { V1ClientHandlers } from "./client-handlers.js";
import { initializeResultToV2 } from "./values.js";

export interface V1Wiring {
  toPeer(message: WireMessage): void | Promise<void>;
  toLocal(message: WireMessage): void | Promise<void>;
  logger: Logger;
}

/** The v1 `initialize` result decoded (`v1Result`): the bridge to translate with and the v2 result, or why not. */
export function startV1Session(
  wiring: V1Wiring,
  result: unknown,
  handlers: V1ClientHandlers,
):
  | { ok: true; bridge: V1AgentBridge; v1Result: V1InitializeResponse; v2Result: unknown }
  | { ok: false; path: string; reason: string } {
  const decoded = v1Decoders.initialize.result(result);
  if (!decoded.ok) return { ok: false, path: decoded.error.path, reason: decoded.error.message };
  return {
    ok: true,
    bridge: new V1AgentBridge(wiring, decoded.value, handlers),
    v1Result: decoded.value,
    v2Result: initializeResultToV2(decoded.value),
  };
}
