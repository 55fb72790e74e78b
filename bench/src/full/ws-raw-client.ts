// A WebSocket client without an ACP library: `ws`, `JSON.parse` per text frame, counts chunks
// until the turn's idle (the client's share of the WebSocket floor).
import { WebSocket } from "ws";
import type { TurnClient } from "./turn-client.js";
import { CWD, clientInfo } from "./workload.js";

interface Message {
  id?: number;
  method?: string;
  error?: unknown;
  result?: unknown;
  params?: { update?: { sessionUpdate?: string; state?: string } };
}

export async function rawWsTurnClient(url: string): Promise<TurnClient> {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  const waiting = new Map<number, (message: Message) => void>();
  let onUpdate: (message: Message) => void = () => {};
  socket.on("message", (data) => {
    const message = JSON.parse(String(data)) as Message;
    if (message.method === "session/update") onUpdate(message);
    else if (message.id !== undefined) waiting.get(message.id)?.(message);
  });
  let nextId = 0;
  const request = (method: string, params: unknown): Promise<Message> => {
    const id = ++nextId;
    return new Promise((resolve) => {
      waiting.set(id, resolve);
      socket.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    });
  };
  await request("initialize", { protocolVersion: 2, info: clientInfo, capabilities: {} });
  const { result } = await request("session/new", { cwd: CWD, mcpServers: [] });
  const { sessionId } = result as { sessionId: string };
  return {
    async turn(chunks) {
      let received = 0;
      const idle = new Promise<void>((resolve) => {
        onUpdate = (message) => {
          const update = message.params?.update;
          if (update?.sessionUpdate === "agent_message_chunk") received++;
          else if (update?.sessionUpdate === "state_update" && update.state === "idle") resolve();
        };
      });
      const answer = await request("session/prompt", { sessionId, prompt: [{ type: "text", text: String(chunks) }] });
      if (answer.error) throw new Error(`raw: prompt failed ${JSON.stringify(answer.error)}`);
      await idle;
      return received;
    },
    async close() {
      socket.close();
    },
  };
}
