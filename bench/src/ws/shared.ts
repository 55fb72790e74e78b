// What both WebSocket benchmark servers send (the workload shared with the stdio benchmark), and
// how a server child talks to ../ws.ts.
export { chunkUpdate, initializeResult, STREAM_METHOD } from "../shared/stream-workload.js";

/**
 * Server child protocol: print `BENCH_URL <url>` once listening; when stdin ends, print
 * `BENCH_PEAK_RSS <bytes>` (the whole life's peak) and exit.
 */
export function serveUntilStdinEnds(url: string, close: () => Promise<void>): void {
  process.stdout.write(`BENCH_URL ${url}\n`);
  process.stdin.resume();
  process.stdin.once("end", () => {
    void close().finally(() => {
      process.stdout.write(`BENCH_PEAK_RSS ${process.resourceUsage().maxRSS * 1024}\n`);
      process.exit(0);
    });
  });
}
