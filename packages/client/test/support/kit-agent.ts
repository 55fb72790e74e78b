// An agent written with @acp-kit/agent that client and transport tests drive: "edit ..." streams
// text around a tool call that needs permission (with a terminal), "count N" says N chunks, and
// anything else runs a tool call until the turn is cancelled.
import { defineAgent, type Turn } from "@acp-kit/agent";

/** The agent's prompt handler, for tests that wrap it with turns of their own. */
export async function kitTurn(turn: Turn): Promise<"end_turn" | "cancelled"> {
  if (turn.text.startsWith("edit")) {
    await turn.say("Editing.");
    const call = turn.toolCall({ title: "Edit main.ts", kind: "edit" });
    const decision = await call.requestPermission();
    if (!decision.granted) {
      await call.fail();
      return "end_turn";
    }
    await call.start();
    const terminal = turn.terminal({ command: "npm test", cwd: "/w" });
    await call.showTerminal(terminal.id);
    await terminal.write("ok\n");
    await terminal.exit({ exitCode: 0 });
    await call.complete();
    await turn.say("Done.");
    return "end_turn";
  }
  const count = /^count (\d+)/.exec(turn.text);
  if (count) {
    for (let i = 0; i < Number(count[1]); i++) await turn.say(`chunk ${i} `);
    return "end_turn";
  }
  // Long work that only stops when cancelled.
  const call = turn.toolCall({ title: "Watch", kind: "execute" });
  await call.start();
  await new Promise<void>((resolve) => turn.signal.addEventListener("abort", () => resolve(), { once: true }));
  return "cancelled";
}

export const kitAgent = defineAgent({ info: { name: "kit-agent", version: "0.0.0" }, prompt: kitTurn });
