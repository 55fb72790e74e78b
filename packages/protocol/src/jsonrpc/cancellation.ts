/**
 * `$/cancel_request` is the one protocol-level notification the JSON-RPC core acts on itself
 * (like LSP's `$/cancelRequest`): the side that issued a request may send it, with
 * `{ requestId }`, to ask the handler to stop. The handler still answers exactly once.
 */
import type { JsonRpcId, RequestIdRule } from "./messages.js";

export const CANCEL_REQUEST_METHOD = "$/cancel_request";

export interface CancelRequestParams {
  requestId: JsonRpcId;
}

/** The `requestId` of a `$/cancel_request` params value, or undefined when it is malformed. */
export function readCancelledId(params: unknown, ids: RequestIdRule): JsonRpcId | undefined {
  if (typeof params !== "object" || params === null || !("requestId" in params)) return undefined;
  const { requestId } = params;
  return ids.accepts(requestId) ? requestId : undefined;
}
