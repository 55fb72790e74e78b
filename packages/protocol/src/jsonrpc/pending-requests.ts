/**
 * The requests this side sent and still waits for: id allocation and the pending map.
 */
import type { JsonRpcId } from "./messages.js";

export interface PendingRequest {
  readonly method: string;
  resolve(result: unknown): void;
  reject(error: unknown): void;
  /** The caller's signal and our listener on it (both absent without a signal), detached on removal. */
  readonly signal: AbortSignal | undefined;
  readonly onAbort: (() => void) | undefined;
  /** Turns the raw result into the resolved value; what it throws rejects the request. */
  readonly parse: ((result: unknown) => unknown) | undefined;
}

/** Settles `request` with the peer's raw result, parsed first when it has a parser. */
export function resolveWithResult(request: PendingRequest, result: unknown): void {
  if (request.parse === undefined) {
    request.resolve(result);
    return;
  }
  let value: unknown;
  try {
    value = request.parse(result);
  } catch (error) {
    request.reject(error);
    return;
  }
  request.resolve(value);
}

/** Plain data rather than a cleanup closure: a request without a signal allocates nothing for it. */
function detach(request: PendingRequest): void {
  if (request.onAbort !== undefined) request.signal?.removeEventListener("abort", request.onAbort);
}

/** How many aborted ids to remember so their late responses are dropped quietly. */
const ABORTED_IDS_REMEMBERED = 4096;

export class PendingRequests {
  #nextId = 0;
  #pendingTable: Map<JsonRpcId, PendingRequest> | undefined;
  /** Made on first use: an empty Map costs ~180 bytes, for each of thousands of idle sessions. */
  get #pending(): Map<JsonRpcId, PendingRequest> {
    return (this.#pendingTable ??= new Map());
  }
  /** Ids we aborted locally; the peer still owes one response for each (ignored on arrival). */
  #abortedTable: Set<JsonRpcId> | undefined;
  /** Made on first use: an empty Set costs ~180 bytes, for each of thousands of idle sessions. */
  get #aborted(): Set<JsonRpcId> {
    return (this.#abortedTable ??= new Set());
  }

  get size(): number {
    return this.#pendingTable?.size ?? 0;
  }

  /** A fresh id: integers counting up from 0, never reused within a connection. */
  allocateId(): number {
    return this.#nextId++;
  }

  add(id: JsonRpcId, request: PendingRequest): void {
    this.#pending.set(id, request);
  }

  /** Removes and returns the request answered by `id`. */
  take(id: JsonRpcId): PendingRequest | undefined {
    const request = this.#pendingTable?.get(id);
    if (request !== undefined) {
      this.#pending.delete(id);
      detach(request);
    }
    return request;
  }

  /** Removes a request the caller aborted, remembering its id for the late response. */
  abort(id: JsonRpcId): PendingRequest | undefined {
    const request = this.take(id);
    if (request !== undefined) {
      this.#aborted.add(id);
      if (this.#aborted.size > ABORTED_IDS_REMEMBERED) {
        // A Set iterates in insertion order: its first id is the oldest.
        for (const oldest of this.#aborted) {
          this.#aborted.delete(oldest);
          break;
        }
      }
    }
    return request;
  }

  /** True (once) when `id` belongs to a request we aborted: its late response is expected. */
  forgetAborted(id: JsonRpcId): boolean {
    return this.#abortedTable?.delete(id) ?? false;
  }

  /** Removes every request, for the close path. */
  drain(): PendingRequest[] {
    const all = [...(this.#pendingTable?.values() ?? [])];
    this.#pendingTable?.clear();
    this.#abortedTable?.clear();
    for (const request of all) detach(request);
    return all;
  }
}
