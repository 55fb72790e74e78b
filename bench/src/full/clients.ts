// The client side of every full-stack case, as a user writes it:
//   ours  connectToAgent(...) + newSession + session.prompt(...), iterating the turn's updates
//   sdk   client() + buildSession().start() + ActiveSession.prompt(...) and nextUpdate() until the
//         idle `stop` (the SDK's documented path for prompt turns; no extra handler parses updates)
import type { Transport } from "@acp-kit/protocol/jsonrpc";
import { connectToAgent } from "@acp-kit/client";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { CWD, clientInfo } from "./workload.js";

/** A consumer that falls behind: awaits 1 ms after every `every` chunks. */
export interface SlowConsumer {
  every: number;
}

export interface TurnClient {
  /** Prompts for `chunks` chunks, reads the turn to its end, resolves with the chunks received. */
  turn(chunks: number, slow?: SlowConsumer): Promise<number>;
  close(): Promise<void>;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function oursTurnClient(transport: Transport): Promise<TurnClient> {
  const client = await connectToAgent(transport, { info: clientInfo });
  const session = await client.newSession({ cwd: CWD });
  return {
    async turn(chunks, slow) {
      const turn = session.prompt(String(chunks));
      let received = 0;
      for await (const update of turn) {
        if (update.sessionUpdate !== "agent_message_chunk") continue;
        received++;
        if (slow && received % slow.every === 0) await pause(1);
      }
      const { stopReason } = await turn.done;
      if (stopReason !== "end_turn") throw new Error(`ours: turn ended with ${stopReason}`);
      return received;
    },
    close: () => client.close(),
  };
}

export async function sdkTurnClient(stream: acp.Stream): Promise<TurnClient & { connection: acp.ClientConnection }> {
  const connection = acp.client(clientInfo).connect(stream);
  await connection.agent.request("initialize", {
    protocolVersion: acp.PROTOCOL_VERSION,
    info: clientInfo,
    capabilities: {},
  });
  const session = await connection.agent.buildSession(CWD).start();
  return {
    connection,
    async turn(chunks, slow) {
      const accepted = session.prompt(String(chunks));
      let received = 0;
      for (;;) {
        const message = await session.nextUpdate();
        if (message.kind === "stop") {
          if (message.stopReason !== "end_turn") throw new Error(`sdk: turn ended with ${message.stopReason}`);
          break;
        }
        if (message.update.sessionUpdate !== "agent_message_chunk") continue;
        received++;
        if (slow && received % slow.every === 0) await pause(1);
      }
      await accepted;
      return received;
    },
    async close() {
      session.dispose();
      connection.close();
      await connection.closed.catch(() => undefined);
    },
  };
}
