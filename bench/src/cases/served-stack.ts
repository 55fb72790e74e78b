// A full stack as the turn and fan-out cases drive it over any transport: a server process of
// the stack, and clients of the same stack connected to it.
import type { TurnClient } from "../full/turn-client.js";
import { timedTurn } from "../full/turn-client.js";
import type { WsServer } from "../full/ws-spawn.js";
import { type Figures, MiB, withPeakRss } from "./side.js";

export interface ServedStack {
  startServer(): Promise<WsServer>;
  connectClient(url: string): Promise<TurnClient>;
}

/** One warm-up turn, then the timed turn of `chunks`: throughput and both sides' peak RSS. */
export async function measureTurn(stack: ServedStack, chunks: number, warmup: number): Promise<Figures> {
  const server = await stack.startServer();
  const client = await stack.connectClient(server.url);
  await client.turn(warmup);
  const { result: msgPerSec, peakRss } = await withPeakRss(() => timedTurn(client, chunks));
  await client.close();
  const serverPeak = await server.stop();
  return { msgPerSec, clientPeakRssMiB: peakRss / MiB, serverPeakRssMiB: serverPeak / MiB };
}
