/**
 * The write-ahead rule between a session store and the wire: no client receives an update the
 * store has not written first.
 * - A store that queues its writes in memory (`SessionStore.flushSync`) writes them before each
 *   write of the transport: once per coalesced write where the transport offers
 *   `onBeforeWrite`, else before every send.
 * - A store whose writes are asynchronous (`SessionStore.commit`, a database) is a barrier: each
 *   outgoing message is held until a commit taken after it was queued resolved. Messages queued
 *   while one commit is awaited gather into the next batch, so the wire goes at the pace of the
 *   store's group commits, in order. What gathers is bounded: past `maxHeldBytes` in the next
 *   batch the send returns a promise (backpressure, the turn's send waits). The batch whose commit
 *   is in flight does not count against it, so the turn keeps producing the next batch while the
 *   store commits the previous one (at most twice the bound is held). A failed commit drops the history
 *   updates of the sessions it names, from then until their turn's idle went out (the client
 *   never sees what was not stored, nor a turn with a hole in it), and reports the failure, so
 *   that their turns end with an error; everything else still goes.
 */
import { decorateTransport, type Logger, type Transport } from "@acp-kit/protocol/jsonrpc";
import { type SessionStore, SessionStoreError } from "./session-store.js";

/** Updates that are not history (see update-sender.ts): a failed commit does not hold them back. */
const LIVE_ONLY: ReadonlySet<string> = new Set(["state_update", "notice"]);

/**
 * Default bound of the messages gathering for the store's next commit (docs/limits.md). Small on
 * purpose: the turn then yields to the event loop often, so the store's replies are read while
 * the next batch gathers (measured: a higher rate and a third less peak RSS than with 8 MiB).
 */
export const DEFAULT_MAX_HELD_BYTES = 256 * 1024;

export interface WriteAheadOptions {
  logger: Logger;
  /** A commit failed: the held history updates of `error.sessionIds` (all if undefined) were dropped. */
  onCommitFailed(error: SessionStoreError): void;
  maxHeldBytes?: number;
}

/**
 * `transport` with `store` written ahead of it, and the function that detaches the hook (once the
 * connection ended). Without `store.flushSync` and `store.commit` the transport is returned as it is.
 */
export function writeAhead(
  transport: Transport,
  store: SessionStore,
  options: WriteAheadOptions,
): { transport: Transport; detach: () => void } {
  const { logger } = options;
  let served = transport;
  let detach = (): void => {};
  if (store.flushSync !== undefined) {
    const flush = (): void => {
      try {
        store.flushSync?.();
      } catch (error) {
        // The contract says it does not throw; one that does must not cost the connection.
        logger.error?.("Session store failed to write its queued updates", { error });
      }
    };
    const detachHook = transport.onBeforeWrite?.(flush);
    if (detachHook !== undefined) detach = detachHook;
    else {
      // A transport that cannot tell its writes: the store is written before each payload is queued.
      served = decorateTransport(transport, {
        send: (payload) => {
          flush();
          return transport.send(payload);
        },
      });
    }
  }
  if (store.commit !== undefined) {
    const gate = new CommitGate(served, store, options);
    served = decorateTransport(served, { send: (payload) => gate.send(payload) });
    served.close = () => gate.close();
  }
  return { transport: served, detach };
}

interface Waiter {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Holds outgoing payloads until the store's commit covering them resolved (see the file comment). */
class CommitGate {
  readonly #transport: Transport;
  readonly #store: SessionStore;
  readonly #options: WriteAheadOptions;
  readonly #maxHeldBytes: number;
  /** Payloads waiting for the commit in flight; undefined when none is awaited. */
  #waiting: string[] | undefined;
  /** Payloads queued since that commit was taken: the next batch. */
  #gathering: string[] = [];
  /** Characters in `#gathering` (the bound applies to them). */
  #gatheringBytes = 0;
  /** Senders waiting for the next batch to go to its commit. */
  #room: Waiter | undefined;
  /** The transport's own backpressure, met while releasing a batch. */
  #transportPressure: Promise<void> | undefined;
  /** Settles when nothing is held any more (for `close`). */
  #drained: Waiter | undefined;
  /** The transport refused a payload: nothing more is sent. */
  #failure: unknown;
  /**
   * Sessions whose commit failed, until their idle went out: their history updates are dropped.
   * `undefined` in it: a failure that named no session, every session's until the next commit.
   */
  readonly #failed = new Set<string | undefined>();

  constructor(transport: Transport, store: SessionStore, options: WriteAheadOptions) {
    this.#transport = transport;
    this.#store = store;
    this.#options = options;
    this.#maxHeldBytes = options.maxHeldBytes ?? DEFAULT_MAX_HELD_BYTES;
  }

  send(payload: string): void | Promise<void> {
    if (this.#failure !== undefined) throw this.#failure;
    if (this.#waiting === undefined) {
      const barrier = this.#barrier();
      // Nothing uncommitted: straight to the wire.
      if (barrier === undefined) return this.#transport.send(payload);
      this.#waiting = [payload];
      this.#await(barrier);
    } else {
      this.#gathering.push(payload);
      this.#gatheringBytes += payload.length;
    }
    if (this.#transportPressure !== undefined) return this.#transportPressure;
    if (this.#gatheringBytes > this.#maxHeldBytes) {
      this.#room ??= waiter();
      return this.#room.promise;
    }
    return undefined;
  }

  /** Waits for what is held to go out (or be dropped), then closes the transport. */
  async close(): Promise<void> {
    if (this.#waiting !== undefined) {
      this.#drained ??= waiter();
      await this.#drained.promise;
    }
    await this.#transport.close();
  }

  /** The store's barrier now; a throwing store counts as a failed commit of every session. */
  #barrier(): void | Promise<void> {
    try {
      return this.#store.commit?.();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #await(barrier: Promise<void>): void {
    barrier.then(
      () => this.#release(undefined),
      (error: unknown) => this.#release(storeError(error)),
    );
  }

  /** The commit of the waiting batch settled: it goes out (less what it failed to store), the next is awaited. */
  #release(failed: SessionStoreError | undefined): void {
    const batch = this.#waiting ?? [];
    if (failed === undefined) this.#failed.delete(undefined);
    else {
      if (failed.sessionIds === undefined) this.#failed.add(undefined);
      else for (const sessionId of failed.sessionIds) this.#failed.add(sessionId);
      this.#options.logger.error?.("Session store could not commit; its updates are not sent", { error: failed });
      try {
        this.#options.onCommitFailed(failed);
      } catch (error) {
        this.#options.logger.error?.("Ending the turns of a failed commit failed", { error });
      }
    }
    for (const payload of batch) {
      if (this.#failure !== undefined || (this.#failed.size > 0 && this.#drops(payload))) continue;
      try {
        const pressure = this.#transport.send(payload);
        if (pressure !== undefined) this.#pressure(pressure);
      } catch (error) {
        this.#failure = error;
      }
    }
    this.#waiting = undefined;
    if (this.#gathering.length > 0 && this.#failure === undefined) {
      const next = this.#gathering;
      this.#gathering = [];
      this.#gatheringBytes = 0;
      this.#waiting = next;
      const barrier = this.#barrier();
      if (barrier === undefined) this.#release(undefined);
      else this.#await(barrier);
    } else if (this.#failure !== undefined) {
      this.#gathering = [];
      this.#gatheringBytes = 0;
    }
    if (this.#gatheringBytes <= this.#maxHeldBytes || this.#failure !== undefined) {
      const room = this.#room;
      this.#room = undefined;
      if (this.#failure !== undefined) room?.reject(this.#failure);
      else room?.resolve();
      room?.promise.catch(() => {});
    }
    if (this.#waiting === undefined) {
      const drained = this.#drained;
      this.#drained = undefined;
      drained?.resolve();
    }
  }

  /**
   * Whether `payload` is a history update of a session whose commit failed (then dropped). The
   * idle of such a session ends its failure. Only after a failure: payloads are read again.
   */
  #drops(payload: string): boolean {
    let message: {
      method?: unknown;
      params?: { sessionId?: unknown; update?: { sessionUpdate?: unknown; state?: unknown } };
    };
    try {
      message = JSON.parse(payload);
    } catch {
      return false;
    }
    if (message.method !== "session/update") return false;
    const sessionId = message.params?.sessionId;
    if (typeof sessionId !== "string") return false;
    const failed = this.#failed.has(sessionId) || this.#failed.has(undefined);
    const update = message.params?.update;
    const kind = update?.sessionUpdate;
    if (typeof kind === "string" && LIVE_ONLY.has(kind)) {
      if (kind === "state_update" && update?.state === "idle") this.#failed.delete(sessionId);
      return false;
    }
    return failed;
  }

  #pressure(pressure: Promise<void>): void {
    if (this.#transportPressure !== undefined) return;
    const settled = pressure.finally(() => {
      if (this.#transportPressure === settled) this.#transportPressure = undefined;
    });
    settled.catch(() => {});
    this.#transportPressure = settled;
  }
}

function storeError(error: unknown): SessionStoreError {
  if (error instanceof SessionStoreError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new SessionStoreError(`The session store could not commit updates: ${detail}`, undefined, { cause: error });
}

function waiter(): Waiter {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
