// A load generator process of the scale cases: raw clients (raw-session.ts over WebSocket,
// raw-http-session.ts over Streamable HTTP, by the server's URL) driven by the case over IPC. It
// holds the sessions it opened between commands.
import { serveCommands } from "./control.js";
import { RawHttpSession } from "./raw-http-session.js";
import { RawSession, type Refusal, RefusedError } from "./raw-session.js";

type Session = RawSession | RawHttpSession;

/** A raw client of the server at `url`: Streamable HTTP for an `http:` URL, else WebSocket. */
function openSession(url: string): Promise<Session> {
  return url.startsWith("http:") ? RawHttpSession.open(url) : RawSession.open(url);
}

const sessions: Session[] = [];

export interface Opened {
  opened: number;
  /** Set when an attempt failed (and, with `untilRefused`, the opening stopped there). */
  refusal: Refusal | undefined;
  seconds: number;
}

export interface Streamed {
  updates: number;
  /**
   * Delivery latencies (from the append) in ms, sorted, an evenly strided sample of at most
   * `SAMPLES` of them: the quantiles of several load processes are read from their samples merged.
   */
  latencyMs: number[];
  /** Lateness (from when each chunk was due on its schedule to its receipt), sampled the same way. */
  latenessMs: number[];
  seconds: number;
  /** This load process's own CPU time over the stream (µs): whether the clients kept up. */
  loadCpuMicros: number;
}

const SAMPLES = 20_000;

/** `values` sorted, then every n-th of them (in ms) so that at most `SAMPLES` remain. */
function sortedSample(values: Float64Array): number[] {
  const sorted = values.sort();
  const stride = Math.max(1, Math.ceil(sorted.length / SAMPLES));
  const sample: number[] = [];
  for (let i = 0; i < sorted.length; i += stride) sample.push((sorted[i] as number) / 1000);
  return sample;
}

export interface Churned {
  sessions: number;
  failures: number;
  seconds: number;
  /** This load process's own CPU time over the churn (µs): what the clients cost the machine. */
  loadCpuMicros: number;
}

/** Opens `count` sessions, `concurrency` handshakes in flight; stops at the first refusal. */
async function connect(args: { url: string; count: number; concurrency: number }): Promise<Opened> {
  const started = performance.now();
  let refusal: Refusal | undefined;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (refusal === undefined && next < args.count) {
      next++;
      try {
        sessions.push(await openSession(args.url));
      } catch (error) {
        if (!(error instanceof RefusedError)) throw error;
        refusal ??= error.refusal;
      }
    }
  };
  const before = sessions.length;
  await Promise.all(Array.from({ length: args.concurrency }, worker));
  return { opened: sessions.length - before, refusal, seconds: (performance.now() - started) / 1000 };
}

/**
 * Prompts every held session with `text` (the prompts spread evenly over `spreadMs`, so the
 * sessions' schedules do not all tick at once) and waits for every turn's idle.
 */
async function stream(args: { text: string; expected: number; spreadMs: number }): Promise<Streamed> {
  const latencies = new Float64Array(sessions.length * args.expected);
  const lateness = new Float64Array(sessions.length * args.expected);
  let updates = 0;
  for (const session of sessions)
    session.onChunk = (latency, late) => {
      if (updates < latencies.length) {
        latencies[updates] = latency;
        lateness[updates] = late;
      }
      updates++;
    };
  const started = performance.now();
  const cpu = process.cpuUsage();
  const turns: Promise<void>[] = [];
  const step = args.spreadMs / sessions.length;
  for (let i = 0; i < sessions.length; i++) {
    const due = started + i * step;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    turns.push((sessions[i] as Session).prompt(args.text));
  }
  await Promise.all(turns);
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const received = Math.min(updates, latencies.length);
  return {
    updates,
    latencyMs: sortedSample(latencies.subarray(0, received)),
    latenessMs: sortedSample(lateness.subarray(0, received)),
    seconds,
    loadCpuMicros: used.user + used.system,
  };
}

/** Runs one short turn on up to `count` held sessions (spread over the list); resolves with how many completed. */
async function probe(args: { text: string; count: number; timeoutMs: number }): Promise<number> {
  const stride = Math.max(1, Math.floor(sessions.length / args.count));
  const picked = sessions.filter((_, i) => i % stride === 0).slice(0, args.count);
  const outcomes = await Promise.all(
    picked.map((session) => {
      if (!session.open) return false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), args.timeoutMs);
      });
      return Promise.race([session.prompt(args.text).then(() => true as const), timeout]).finally(() =>
        clearTimeout(timer),
      );
    }),
  );
  return outcomes.filter(Boolean).length;
}

/**
 * For `seconds`, `concurrency` loops each: connect, `initialize`, `session/new`, one turn of
 * `text`, close (waiting for the close); resolves with the sessions completed.
 */
async function churn(args: { url: string; text: string; seconds: number; concurrency: number }): Promise<Churned> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const end = started + args.seconds * 1000;
  let done = 0;
  let failures = 0;
  const loop = async (): Promise<void> => {
    while (performance.now() < end) {
      try {
        const session = await openSession(args.url);
        await session.prompt(args.text);
        await session.close();
        done++;
      } catch {
        failures++;
      }
    }
  };
  await Promise.all(Array.from({ length: args.concurrency }, loop));
  const used = process.cpuUsage(cpu);
  return {
    sessions: done,
    failures,
    seconds: (performance.now() - started) / 1000,
    loadCpuMicros: used.user + used.system,
  };
}

async function closeAll(): Promise<void> {
  const all = sessions.splice(0);
  for (let i = 0; i < all.length; i += 500) await Promise.all(all.slice(i, i + 500).map((s) => s.close()));
}

serveCommands({ connect, stream, probe, churn, closeAll, held: () => sessions.length });
