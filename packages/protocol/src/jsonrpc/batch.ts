/**
 * JSON-RPC 2.0 batches (received, never sent): entries dispatched in order, one reply array once
 * every request settled, an empty or over-long batch refused whole with a single -32600.
 */
import type { Respond } from "./connection-types.js";
import { RequestError } from "./errors.js";
import { classifyInbound, errorResponse, type InboundEntry, type RequestIdRule } from "./messages.js";

/** What the batch needs of the connection receiving it. */
export interface BatchReceiver {
  readonly isClosed: boolean;
  readonly maxBatchEntries: number;
  readonly requestIds: RequestIdRule;
  /** A promise while handlers in flight are at `maxPendingHandlers`. */
  backpressure(): Promise<void> | undefined;
  dispatch(entry: InboundEntry, respond: Respond): void;
  sendResponse(serialized: string): void;
  warn(message: string, data: unknown): void;
}

/**
 * Dispatches `entries`. Returns a promise while dispatching waits for handlers in flight to drop
 * below `maxPendingHandlers` (the transport reads nothing meanwhile), so one batch line cannot
 * start more handlers at once than separate messages could.
 */
export function receiveBatch(entries: unknown[], receiver: BatchReceiver): Promise<void> | undefined {
  const refusal = batchRefusal(entries.length, receiver);
  if (refusal !== undefined) {
    receiver.sendResponse(JSON.stringify(errorResponse(null, refusal)));
    return;
  }
  const replies: string[] = [];
  let outstanding = 0;
  let dispatching = true;
  const flush = (): void => {
    if (replies.length > 0) receiver.sendResponse(`[${replies.join(",")}]`);
  };
  const collect: Respond = (serialized) => {
    replies.push(serialized);
    if (--outstanding === 0 && !dispatching) flush();
  };
  let next = 0;
  const run = (): Promise<void> | undefined => {
    while (next < entries.length) {
      if (receiver.isClosed) return;
      const wait = receiver.backpressure();
      if (wait !== undefined) return wait.then(run);
      // Each request entry will call `collect` exactly once; invalid entries answer at once.
      const classified = classifyInbound(entries[next++], receiver.requestIds);
      if (classified.kind === "request" || classified.kind === "invalid") outstanding++;
      receiver.dispatch(classified, collect);
    }
    dispatching = false;
    if (outstanding === 0) flush();
    return;
  };
  return run();
}

/** The -32600 for a batch refused whole, or undefined for one to dispatch. */
function batchRefusal(length: number, receiver: BatchReceiver): RequestError | undefined {
  if (length === 0) return RequestError.invalidRequest("Invalid request: empty batch");
  const { maxBatchEntries } = receiver;
  if (length <= maxBatchEntries) return undefined;
  receiver.warn("Refused a batch over the entry limit", { entries: length, maxBatchEntries });
  return RequestError.invalidRequest(
    `Invalid request: batch of ${length} entries exceeds the limit of ${maxBatchEntries}`,
    { entries: length, maxBatchEntries },
  );
}
