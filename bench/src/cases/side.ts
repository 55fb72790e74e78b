// What every case script does with its command line: `<script> <side> [--quick]` runs one side
// of the case in this (fresh) process and prints its figures as one JSON line last on stdout.

export type Figures = Record<string, number>;

export const quick = process.argv.includes("--quick");

/** Runs the side named on the command line and prints its figures. */
export async function runSide(sides: Record<string, () => Promise<Figures>>): Promise<void> {
  const name = process.argv[2] ?? "";
  const side = sides[name];
  if (side === undefined)
    throw new Error(`unknown side ${JSON.stringify(name)}; known: ${Object.keys(sides).join(", ")}`);
  const figures = await side();
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  // Handles a library leaves open (sockets being torn down, timers) must not hold the round.
  process.exit(0);
}

/** Samples this process's RSS every 5 ms while `work` runs; resolves with its result and the peak. */
export async function withPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; peakRss: number }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  try {
    const result = await work();
    return { result, peakRss: Math.max(peak, process.memoryUsage.rss()) };
  } finally {
    clearInterval(timer);
  }
}

export const MiB = 1024 * 1024;
