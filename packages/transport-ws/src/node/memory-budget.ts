import type { Logger } from "@acp-kit/protocol/jsonrpc";
import { ConnectionErrorKinds } from "@acp-kit/protocol/jsonrpc";
import { CloseCodes } from "../close-codes.js";
import type { NodeWebSocketTransport } from "./ws-transport.js";

/**
 * The server's global memory budget: while all connections together hold more than
 * `maxTotalBufferedBytes`, the connection holding the most is dropped with 1008.
 */
export function enforceMemoryBudget(
  live: Iterable<NodeWebSocketTransport>,
  maxTotalBufferedBytes: number,
  logger: Logger | undefined,
): void {
  let total = 0;
  // Connections already being dropped free their buffers as their socket is destroyed.
  for (const transport of live) if (!transport.isEnding) total += transport.memoryUsage;
  while (total > maxTotalBufferedBytes) {
    let largest: NodeWebSocketTransport | undefined;
    for (const transport of live) {
      if (!transport.isEnding && (largest === undefined || transport.memoryUsage > largest.memoryUsage))
        largest = transport;
    }
    if (largest === undefined) return;
    const usage = largest.memoryUsage;
    logger?.warn?.("ACP WebSocket server over its memory budget: dropping the largest connection", {
      connectionId: largest.connectionId,
      bufferedBytes: usage,
      totalBufferedBytes: total,
      maxTotalBufferedBytes,
    });
    largest.dropForViolation(
      ConnectionErrorKinds.WriteFailed,
      CloseCodes.PolicyViolation,
      "Server memory budget exceeded: this connection held the most unread data",
      { bufferedBytes: usage, maxTotalBufferedBytes },
    );
    total -= usage;
  }
}
