// Our client side of every full-stack case, as a user writes it: connectToAgent(...) + newSession
// + session.prompt(...), iterating the turn's updates. Imports nothing of the official SDK, so
// that a side's RSS is its own stack's.
import { connectToAgent } from "@acp-kit/client";
import type { Transport } from "@acp-kit/protocol/jsonrpc";
import { pause, type TurnClient } from "./turn-client.js";
import { CWD, clientInfo } from "./workload.js";

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
