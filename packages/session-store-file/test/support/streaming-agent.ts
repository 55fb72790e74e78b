/**
 * The agent of the kill -9 loop's child process (both stores' fixtures start it with their own
 * store): a `defineAgent` agent on stdio. Each prompt streams a reply of 20 to 400 chunks `0:`,
 * `1:`, ... (a few at a time, yielding to the event loop in between, as a model's tokens arrive),
 * then ends its turn. Resolves once stdin closed.
 */
import { defineAgent, type SessionStore } from "@acp-kit/agent";
import { stdioTransport } from "@acp-kit/transport-stdio";

export async function serveStreamingAgent(sessionStore: SessionStore): Promise<void> {
  const agent = defineAgent({
    info: { name: "kill-loop-agent", version: "1.0.0" },
    sessionStore,
    async prompt(turn) {
      const reply = turn.message();
      const chunks = 20 + Math.floor(Math.random() * 380);
      for (let i = 0; i < chunks; i++) {
        await reply.append(`${i}:`);
        if (Math.random() < 0.1) await new Promise((resolve) => setImmediate(resolve));
      }
      return "end_turn";
    },
  });
  await agent.serve(stdioTransport()).closed;
}
