// A client without any library: splits the agent's output into lines and `JSON.parse`s each (the
// parent's share of the raw floor), answers nothing, counts chunks until the turn's idle.
import type { Readable, Writable } from "node:stream";
import type { TurnClient } from "./turn-client.js";
import { CWD, clientInfo } from "./workload.js";

export interface Message {
  id?: number;
  method?: string;
  result?: unknown;
  error?: unknown;
  params?: { update?: { sessionUpdate?: string; state?: string } };
}

/**
 * The raw client's side of the protocol, whatever carries it: `send` writes one message's JSON
 * (a line, a frame), `receive` takes each parsed message from the agent.
 */
export function rawTurnProtocol(send: (json: string) => void): {
  receive: (message: Message) => void;
  open: () => Promise<TurnClient>;
} {
  const waiting = new Map<number, (message: Message) => void>();
  let onUpdate: (message: Message) => void = () => {};
  const receive = (message: Message): void => {
    if (message.method === "session/update") onUpdate(message);
    else if (message.id !== undefined) waiting.get(message.id)?.(message);
  };
  let nextId = 0;
  const request = (method: string, params: unknown): Promise<Message> => {
    const id = ++nextId;
    return new Promise((resolve) => {
      waiting.set(id, resolve);
      send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    });
  };
  const open = async (): Promise<TurnClient> => {
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
      async close() {},
    };
  };
  return { receive, open };
}

/** Over a child's pipes: lines split and `JSON.parse`d each. */
export async function rawTurnClient(input: Writable, output: Readable): Promise<TurnClient> {
  const protocol = rawTurnProtocol((json) => input.write(`${json}\n`));
  let partial = "";
  output.setEncoding("utf8");
  output.on("data", (text: string) => {
    const lines = (partial + text).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      if (line !== "") protocol.receive(JSON.parse(line) as Message);
    }
  });
  return protocol.open();
}
