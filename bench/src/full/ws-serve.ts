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

/**
 * HTTP servers only: keep idle keep-alive sockets for a minute instead of Node's 5 s. A client's
 * POST sockets idle for the whole of a turn (its output comes on the GET streams); past 5 s the
 * server closes them, and a client whose busy event loop has not yet seen that close sends its
 * next POST into it and gets ECONNRESET (fetch retries no POST). Both stacks' servers get it.
 */
export function keepIdleSockets(server: { keepAliveTimeout: number }): void {
  server.keepAliveTimeout = 60_000;
}
