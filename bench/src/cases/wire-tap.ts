// Case wire-tap: what the wire tap costs on the stdio stream. The agent is stdio-turn's bare
// layer (../full/stdio-agent-bare.ts: our Connection on stdioTransport, streaming 50,000
// session/update notifications in answer to one request); the client is our Connection on
// spawnAgent's transport, counting them,
//   no-hook         the same built Connection with the tap's per-message hook taken out
//                   (../wire-tap/no-hook-connection.ts): the code as it would be without the tap
//   untapped        no `tap` option: the tap unused
//   tap-noop        `tap: () => {}`: a tap that does nothing with the events it gets
//   tap-transcript  `tap: new TranscriptWriter(...).tap`, the lines counted and dropped
// Both ends are bare connections so the tap's share is not diluted by the full stacks' work.
// A 5,000-notification warm-up first.
import { fileURLToPath } from "node:url";
import { Connection, type WireTap } from "@acp-kit/protocol/jsonrpc";
import { spawnAgent } from "@acp-kit/transport-stdio";
import { connectionWithoutTapHook } from "../wire-tap/no-hook-connection.js";
import { type Figures, quick, runSide } from "./side.js";

const CHUNKS = quick ? 2_000 : 50_000;
const WARMUP = quick ? 200 : 5_000;
const agentFile = fileURLToPath(new URL("../full/stdio-agent-bare.ts", import.meta.url));
/** The bare agent's streaming request (not imported: importing that file would start its agent here). */
const STREAM_METHOD = "_bench/stream";

async function measure(Class: typeof Connection, tap: WireTap | undefined): Promise<Figures> {
  const child = spawnAgent(process.execPath, ["--import", "tsx", agentFile], { stderr: () => {} });
  const connection = new Class(child.transport, tap ? { tap } : {});
  let received = 0;
  connection.onNotification("session/update", () => void received++);
  connection.listen();
  await connection.request("initialize", { protocolVersion: 2, info: { name: "bench", version: "0" } });
  const stream = async (count: number): Promise<void> => {
    received = 0;
    await connection.request(STREAM_METHOD, { count });
    if (received !== count) throw new Error(`received ${received} of ${count}`);
  };
  await stream(WARMUP);
  const started = performance.now();
  await stream(CHUNKS);
  const seconds = (performance.now() - started) / 1000;
  await connection.close();
  await child.shutdown();
  return { msgPerSec: CHUNKS / seconds };
}

async function transcriptTap(): Promise<WireTap> {
  const { TranscriptWriter } = await import("@acp-kit/protocol");
  let bytes = 0;
  return new TranscriptWriter({ write: (line) => void (bytes += line.length), side: "client" }).tap;
}

await runSide({
  "no-hook": async () => {
    const copy = await connectionWithoutTapHook();
    try {
      return await measure(copy.Connection, undefined);
    } finally {
      copy.remove();
    }
  },
  untapped: () => measure(Connection, undefined),
  "tap-noop": () => measure(Connection, () => {}),
  "tap-transcript": async () => measure(Connection, await transcriptTap()),
});
