// Cancel on both sides, in one process: the client cancels a turn that waits on a permission
// prompt; the agent tells that `cancelled` outcome from a user's rejection.
// Run: tsx packages/client/examples/cancel.ts
import { defineAgent } from "@acp-kit/agent";
import { connectToAgent, selectPermissionOption } from "@acp-kit/client";
import { createInMemoryTransportPair } from "@acp-kit/protocol/jsonrpc";

const agent = defineAgent({
  info: { name: "careful", version: "1.0.0" },
  async prompt(turn) {
    const decision = await turn.requestPermission({ title: `Run "${turn.text}"?` });
    // `granted: false` covers both a rejection and a withdrawn prompt: look at `outcome`.
    if (decision.outcome === "cancelled") console.log("agent: the prompt was withdrawn (cancelled)");
    else if (!decision.granted) console.log(`agent: the user rejected it (${decision.option?.kind})`);
    if (turn.signal.aborted) return "cancelled"; // the engine would report `cancelled` anyway
    if (decision.granted) await turn.say("Done.");
    return "end_turn";
  },
});

let answer: "reject" | "wait" = "reject";
const [agentSide, clientSide] = createInMemoryTransportPair();
agent.serve(agentSide);
const client = await connectToAgent(clientSide, {
  info: { name: "cancel-example", version: "1.0.0" },
  handlers: {
    // "reject": answer at once; "wait": never answer, so only a cancel ends the turn.
    requestPermission: (request, { signal }) =>
      answer === "reject"
        ? selectPermissionOption(request, "reject_once")
        : new Promise((resolve) =>
            signal.addEventListener("abort", () => resolve({ outcome: { outcome: "cancelled" } })),
          ),
  },
});
const session = await client.newSession({ cwd: process.cwd() });

console.log("client: stop reason", (await session.prompt("rm -rf build").done).stopReason);

answer = "wait";
const turn = session.prompt("deploy");
setTimeout(() => void turn.cancel(), 100); // e.g. the user pressed Esc
console.log("client: stop reason", (await turn.done).stopReason);

await client.close();
