import { defineAgent } from "@acp-kit/agent";
import { stdioTransport } from "@acp-kit/transport-stdio";

/** Streams every prompt back word by word, then reports a finished tool call. */
export const echoAgent = defineAgent({
  info: { name: "echo", title: "Echo", version: "1.0.0" },
  async prompt(turn) {
    const reply = turn.message();
    for (const word of turn.text.split(/(?<=\s)/)) {
      if (turn.signal.aborted) break; // the engine reports `cancelled` for us
      await reply.append(word);
    }
    const count = turn.toolCall({ title: "Count words", kind: "think" });
    await count.complete({ content: [`${turn.text.split(/\s+/).length} words`] });
    return "end_turn";
  },
});

// `tsx examples/echo.ts` serves it over stdio; any other transport works the same way.
if (process.argv[1] === import.meta.filename) echoAgent.serve(stdioTransport());
