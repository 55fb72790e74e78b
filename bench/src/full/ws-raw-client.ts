// A WebSocket client without an ACP library: `ws`, `JSON.parse` per text frame, the raw client's
// protocol of raw-client.ts (the client's share of the WebSocket floor).
import { WebSocket } from "ws";
import { type Message, rawTurnProtocol } from "./raw-client.js";
import type { TurnClient } from "./turn-client.js";

export async function rawWsTurnClient(url: string): Promise<TurnClient> {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  const protocol = rawTurnProtocol((json) => socket.send(json));
  socket.on("message", (data) => protocol.receive(JSON.parse(String(data)) as Message));
  const client = await protocol.open();
  return {
    turn: client.turn,
    async close() {
      socket.close();
    },
  };
}
