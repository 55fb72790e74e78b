// A TCP proxy cuts every GET stream mid-turn, several times in one turn: the client reconnects
// with Last-Event-ID and its store ends equal to an uncut run's, nothing missing or repeated.
import { createServer, type Socket, connect as tcpConnect } from "node:net";
import { defineAgent } from "@acp-kit/agent";
import { textOf } from "@acp-kit/client";
import { expect, it, vi } from "vitest";
import { connectHttp } from "../src/index.js";
import { createAcpHttpServer } from "../src/node/index.js";
import { connectClient, onCleanup } from "./support.js";

/** Forwards to `port`; `cutStreams()` destroys every connection that carried a GET. */
async function startProxy(port: number) {
  const streams = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = tcpConnect(port, "127.0.0.1");
    // Keep-alive sockets are reused: any request on the socket may be a GET.
    client.on("data", (chunk: Buffer) => {
      if (chunk.subarray(0, 4).toString() === "GET ") streams.add(client);
    });
    client.pipe(upstream).pipe(client);
    const drop = () => {
      streams.delete(client);
      client.destroy();
      upstream.destroy();
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onCleanup(() => new Promise((resolve) => server.close(resolve)));
  return {
    port: (server.address() as { port: number }).port,
    cutStreams(): number {
      const cut = streams.size;
      for (const socket of streams) socket.destroy();
      streams.clear();
      return cut;
    },
  };
}

const CHUNKS = 300;
const GATES = [60, 150, 240];

async function run(cut: boolean) {
  // The agent pauses at each gate until the test has cut the streams, so every cut is mid-turn.
  let release: (() => void) | undefined;
  const reachedGate: (() => void)[] = [];
  const agent = defineAgent({
    info: { name: "gated", version: "0" },
    async prompt(turn) {
      for (let i = 0; i < CHUNKS; i++) {
        if (GATES.includes(i)) {
          await new Promise<void>((resolve) => {
            release = resolve;
            reachedGate.shift()?.();
          });
        }
        await turn.say(`chunk ${i} `);
      }
      return "end_turn";
    },
  });
  const server = await createAcpHttpServer({ onConnection: (transport) => void agent.serve(transport) });
  onCleanup(() => server.close());
  const proxy = await startProxy(server.port);
  const transport = await connectHttp(`http://127.0.0.1:${proxy.port}/acp`, {
    reconnect: { initialMs: 20, maxMs: 200 },
  });
  const client = await connectClient(transport);
  const session = await client.newSession({ cwd: "/w" });
  const turn = session.prompt("go");
  let cuts = 0;
  for (const gate of GATES) {
    await new Promise<void>((resolve) => reachedGate.push(resolve));
    // Everything before the gate arrived, so both streams are open again.
    await vi.waitFor(() => expect(session.store.getSnapshot().messages.agent.size).toBe(gate), { timeout: 20_000 });
    if (cut) cuts += proxy.cutStreams();
    release?.();
  }
  expect(await turn.done).toEqual({ stopReason: "end_turn" });
  const texts = [...session.store.getSnapshot().messages.agent.values()].map((m) => textOf(m.content));
  return { texts, cuts };
}

it("cut GET streams are resumed: the store equals an uncut run's", async () => {
  const uncut = await run(false);
  const cutRun = await run(true);
  // At each gate the session stream is cut (the idle connection stream too, once it is back).
  expect(cutRun.cuts).toBeGreaterThanOrEqual(GATES.length);
  expect(uncut.texts).toEqual(Array.from({ length: CHUNKS }, (_, i) => `chunk ${i} `));
  expect(cutRun.texts).toEqual(uncut.texts);
}, 60_000);
