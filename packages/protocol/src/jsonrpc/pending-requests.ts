/**
 * The requests this side sent and still waits for: id allocation and the pending map.
 */
import type { JsonRpcId } from "./messages.js";

export interface PendingRequest {
  readonly method: string;
  resolve(result: unknown): void;
  reject(error: unknown): void;
  /** Detaches the abort listener of the caller's signal. */
  cleanup(): void;
}

/** How many aborted ids to remember so their late responses are dropped quietly. */
const ABORTED_IDS_REMEMBERED = 4096;

export class PendingRequests {
  #nextId = 0;
  readonly #pending = new Map<JsonRpcId, PendingRequest>();
  /** Ids we aborted locally; the peer still owes one response for each (ignored on arrival). */
  readonly #aborted = new Set<JsonRpcId>();

  get size(): number {
    return this.#pending.size;
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
    const request = this.#pending.get(id);
    if (request !== undefined) {
      this.#pending.delete(id);
      request.cleanup();
    }
    return request;
  }

  /** Removes a request the caller aborted, remembering its id for the late response. */
  abort(id: JsonRpcId): PendingRequest | undefined {
    const request = this.take(id);
    if (request !== undefined) {
      this.#aborted.add(id);
      if (this.#aborted.size > ABORTED_IDS_REMEMBERED) {
        const oldest = this.#aborted.values().next().value as JsonRpcId;
        this.#aborted.delete(oldest);
      }
    }
    return request;
  }

  /** True (once) when `id` belongs to a request we aborted: its late response is expected. */
  forgetAborted(id: JsonRpcId): boolean {
    return this.#aborted.delete(id);
  }

  /** Removes every request, for the close path. */
  drain(): PendingRequest[] {
    const all = [...this.#pending.values()];
    this.#pending.clear();
    this.#aborted.clear();
    for (const request of all) request.cleanup();
    return all;
  }
}
