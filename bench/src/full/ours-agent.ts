// Our side of every full-stack case: the agent as a user writes it with `defineAgent`. The engine
// does the lifecycle (running, the user message echo, history for resume, idle with the reason).
import { defineAgent, type SessionStore } from "@acp-kit/agent";
import { agentInfo, chunksAsked, chunkText } from "./workload.js";

/**
 * `afterTurn` runs when a turn's chunks are sent (e.g. to report peak RSS); `sessionStore` replaces
 * the default in-memory store (the store cases).
 */
export function oursPromptAgent(afterTurn: () => void = () => {}, sessionStore?: SessionStore) {
  return defineAgent({
    info: agentInfo,
    ...(sessionStore ? { sessionStore } : {}),
    async prompt(turn) {
      const count = chunksAsked(turn.text);
      const reply = turn.message();
      for (let i = 0; i < count; i++) await reply.append(chunkText(i));
      afterTurn();
      return "end_turn";
    },
  });
}
