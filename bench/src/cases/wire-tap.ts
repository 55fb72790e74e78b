// Case wire-tap: what the wire tap costs on the stdio stream. One side process holds four client
// connections, each our Connection (its own fresh copy of the built code, ../wire-tap/connection-copy.ts)
// on spawnAgent's transport to its own agent child, stdio-turn's bare layer
// (../full/stdio-agent-bare.ts: our Connection on stdioTransport, streaming 50,000 session/update
// notifications in answer to one request):
//   noHook      the Connection with the tap's per-message hook taken out: the code without the tap
//   untapped    no `tap` option: the tap unused
//   noop        `tap: () => {}`: a tap that does nothing with the events it gets
//   transcript  `tap: new TranscriptWriter(...).tap`, the lines counted and dropped
// After a 5,000-notification warm-up on each, the four stream in turn, REPEATS times, the order
// rotating each time, so a noisy moment on the machine hits them alike. Each rate is the median of
// its repetitions; each ratio the median of the per-repetition ratios (pairs streamed back to
// back). Both ends are bare connections so the tap's share is not diluted.
import type { WireTap } from "@acp-kit/protocol/jsonrpc";
import { spawnAgent } from "@acp-kit/transport-stdio";
import { nodeArgs, scriptPath } from "../script.js";
import { type ConnectionCopy, connectionCopy } from "../wire-tap/connection-copy.js";
import { type Figures, quick, runSide } from "./side.js";

const CHUNKS = quick ? 2_000 : 50_000;
const WARMUP = quick ? 200 : 5_000;
const REPEATS = quick ? 1 : 7;
const agentFile = scriptPath("../full/stdio-agent-bare.ts", import.meta.url);
/** The bare agent's streaming request (not imported: importing that file would start its agent here). */
const STREAM_METHOD = "_bench/stream";

interface Variant {
  name: string;
  copy: ConnectionCopy;
  stream(count: number): Promise<number>;
  close(): Promise<void>;
}

async function variant(name: string, withoutTapHook: boolean, tap: WireTap | undefined): Promise<Variant> {
  const copy = await connectionCopy({ withoutTapHook });
  const child = spawnAgent(process.execPath, nodeArgs(agentFile), { stderr: () => {} });
  const connection = new copy.Connection(child.transport, tap ? { tap } : {});
  let received = 0;
  connection.onNotification("session/update", () => void received++);
  connection.listen();
  await connection.request("initialize", { protocolVersion: 2, info: { name: "bench", version: "0" } });
  return {
    name,
    copy,
    async stream(count) {
      received = 0;
      const started = performance.now();
      await connection.request(STREAM_METHOD, { count });
      const seconds = (performance.now() - started) / 1000;
      if (received !== count) throw new Error(`${name}: received ${received} of ${count}`);
      return count / seconds;
    },
    async close() {
      await connection.close();
      await child.shutdown();
      copy.remove();
    },
  };
}

async function transcriptTap(): Promise<WireTap> {
  const { TranscriptWriter } = await import("@acp-kit/protocol/tap");
  let bytes = 0;
  return new TranscriptWriter({ write: (line) => void (bytes += line.length), side: "client" }).tap;
}

const median = (values: number[]): number => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

await runSide({
  interleaved: async () => {
    const variants = [
      await variant("noHook", true, undefined),
      await variant("untapped", false, undefined),
      await variant("noop", false, () => {}),
      await variant("transcript", false, await transcriptTap()),
    ];
    try {
      for (const v of variants) await v.stream(WARMUP);
      const repeats: Record<string, number>[] = [];
      for (let r = 0; r < REPEATS; r++) {
        const rates: Record<string, number> = {};
        for (let i = 0; i < variants.length; i++) {
          const v = variants[(i + r) % variants.length] as Variant;
          rates[v.name] = await v.stream(CHUNKS);
        }
        repeats.push(rates);
      }
      const of = (name: string) => repeats.map((rates) => rates[name] as number);
      const ratio = (a: string, b: string) =>
        median(repeats.map((rates) => (rates[a] as number) / (rates[b] as number)));
      const figures: Figures = {};
      for (const v of variants) figures[v.name] = median(of(v.name));
      figures.untappedVsNoHook = ratio("untapped", "noHook");
      figures.noopVsUntapped = ratio("noop", "untapped");
      figures.transcriptVsUntapped = ratio("transcript", "untapped");
      return figures;
    } finally {
      for (const v of variants) await v.close();
    }
  },
});
