// How a benchmark WebSocket server process talks to its case: it prints `BENCH_URL <url>` once
// listening; when its stdin ends it closes, prints `BENCH_PEAK_RSS <bytes>` (its life's peak)
// and exits.
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
