/**
 * The part of the connection the session runtime sends through. The agent connection adapts the
 * typed connection to it; keeping the runtime on this narrow shape keeps it independent of how
 * the connection is built.
 */
export interface Peer {
  /** Sends a request to the client; aborting `signal` withdraws it (`$/cancel_request`). */
  request(method: string, params: unknown, options?: { signal?: AbortSignal }): Promise<unknown>;
  notify(method: string, params: unknown): void | Promise<void>;
  /** True once the connection ended. */
  readonly closed: boolean;
}
