import type { Writable } from "node:stream";

/** Default bytes of agent stderr allowed to wait in this process's stderr before dropping. */
export const DEFAULT_STDERR_PASS_THROUGH_BYTES = 1024 * 1024;

/**
 * Copies a child's stderr chunks to `target` (this process's stderr) with a bound: when the
 * target is not keeping up (a slow terminal, a pipe nobody reads) and already holds
 * `maxBufferedBytes`, further chunks are dropped and counted instead of queued without end;
 * once it drained, one line says how much was lost. The child is never blocked by it.
 */
export function stderrPassThrough(
  target: Writable,
  maxBufferedBytes: number = DEFAULT_STDERR_PASS_THROUGH_BYTES,
): { write(chunk: Buffer): void; readonly droppedBytes: number } {
  let dropped = 0;
  let totalDropped = 0;
  let waiting = false;
  const report = (): void => {
    waiting = false;
    if (dropped === 0) return;
    const count = dropped;
    dropped = 0;
    target.write(`[acp-kit] dropped ${count} bytes of the agent's stderr: this process's stderr was not keeping up\n`);
  };
  return {
    write(chunk) {
      if (target.writableLength >= maxBufferedBytes) {
        dropped += chunk.byteLength;
        totalDropped += chunk.byteLength;
        if (!waiting) {
          waiting = true;
          target.once("drain", report);
        }
        return;
      }
      target.write(chunk);
    },
    get droppedBytes() {
      return totalDropped;
    },
  };
}
