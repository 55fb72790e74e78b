// The commands a scale server process answers (both stacks alike): its memory after a full GC,
// and its CPU time and event-loop delay over a marked window.
import { type IntervalHistogram, monitorEventLoopDelay } from "node:perf_hooks";
import { writeHeapSnapshot } from "node:v8";
import { serveCommands } from "./control.js";

export interface ServerMemory {
  rss: number;
  heapUsed: number;
  /** Memory of `ArrayBuffer`s and other off-heap objects V8 knows of. */
  external: number;
}

export interface ServerWindow {
  /** CPU time (user + system) of the process over the window, in µs. */
  cpuMicros: number;
  eventLoopDelayP99Ms: number;
  eventLoopDelayMaxMs: number;
}

const gc = (globalThis as { gc?: () => void }).gc;

/** How long a memory reading waits after its full GC for the freed pages to leave the RSS. */
const SETTLE_MS = 500;

export function serveServerControl(url: string, close: () => Promise<void>): void {
  let cpuMark: NodeJS.CpuUsage | undefined;
  let delay: IntervalHistogram | undefined;
  serveCommands({
    url: () => url,
    memory: async (): Promise<ServerMemory> => {
      if (gc === undefined) throw new Error("a scale server runs with --expose-gc");
      gc();
      gc();
      // V8 hands the pages a full GC freed back to the OS from a background thread: RSS read at
      // once still counts them (3 to 20 MiB more after a churn, gone 300 ms later, on both stacks).
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      const usage = process.memoryUsage();
      return { rss: usage.rss, heapUsed: usage.heapUsed, external: usage.external };
    },
    /** The peak RSS so far (getrusage: it needs no file descriptor, unlike `memoryUsage`). */
    peakRss: () => process.resourceUsage().maxRSS * 1024,
    mark: () => {
      delay?.disable();
      delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      cpuMark = process.cpuUsage();
    },
    window: (): ServerWindow => {
      if (cpuMark === undefined || delay === undefined) throw new Error("window before mark");
      const cpu = process.cpuUsage(cpuMark);
      delay.disable();
      return {
        cpuMicros: cpu.user + cpu.system,
        eventLoopDelayP99Ms: delay.percentile(99) / 1e6,
        eventLoopDelayMaxMs: delay.max / 1e6,
      };
    },
    /** For profiling a figure: writes a heap snapshot, resolves with its path. */
    heapSnapshot: (args: { path: string }) => writeHeapSnapshot(args.path),
    close,
  });
}

/** The servers' command line: `--capped` keeps our server's default connection cap (the edge case). */
export const capped = process.argv.includes("--capped");

/** `--http`: the servers serve Streamable HTTP instead of WebSocket (the scale-http-* cases). */
export const overHttp = process.argv.includes("--http");
