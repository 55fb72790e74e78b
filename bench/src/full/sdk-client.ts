// The official SDK's client side of every full-stack case: client() + buildSession().start() +
// ActiveSession.prompt(...) and nextUpdate() until the idle `stop` (the SDK's documented path for
// prompt turns; no extra handler parses the updates a second time).
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { pause, type TurnClient } from "./turn-client.js";
import { CWD, clientInfo } from "./workload.js";

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
