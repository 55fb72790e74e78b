// What the three stdio benchmark agents send (the workload shared with the WebSocket benchmark),
// and how each reports its own peak RSS.
export { chunkUpdate, initializeResult, STREAM_METHOD } from "./stream-workload.js";

/** Written to stderr by each agent when it has sent everything: its own peak RSS. */
export function reportPeakRss(): void {
  process.stderr.write(`BENCH_PEAK_RSS ${process.resourceUsage().maxRSS * 1024}\n`);
}
