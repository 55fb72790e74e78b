/**
 * The write-ahead rule between a session store and the wire: a store that queues its writes
 * (`SessionStore.flushSync`) writes them before each write of a transport the agent serves, so
 * no client can receive an update the store has not written yet. The hook runs once per
 * coalesced write where the transport offers `onBeforeWrite`, else before every send.
 */
import { decorateTransport, type Logger, type Transport } from "@acp-kit/protocol/jsonrpc";
import type { SessionStore } from "./session-store.js";

/**
 * `transport` with `store` written ahead of it, and the function that detaches the hook (once the
 * connection ended). Without `store.flushSync` the transport is returned as it is.
 */
export function writeAhead(
  transport: Transport,
  store: SessionStore,
  logger: Logger,
): { transport: Transport; detach: () => void } {
  if (store.flushSync === undefined) return { transport, detach: () => {} };
  const flush = (): void => {
    try {
      store.flushSync?.();
    } catch (error) {
      // The contract says it does not throw; one that does must not cost the connection.
      logger.error?.("Session store failed to write its queued updates", { error });
    }
  };
  const detach = transport.onBeforeWrite?.(flush);
  if (detach !== undefined) return { transport, detach };
  // A transport that cannot tell its writes: the store is written before each payload is queued.
  const flushing = decorateTransport(transport, {
    send: (payload) => {
      flush();
      return transport.send(payload);
    },
  });
  return { transport: flushing, detach: () => {} };
}
