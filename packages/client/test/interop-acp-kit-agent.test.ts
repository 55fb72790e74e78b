// Our client against our agent SDK (@acp-kit/agent), in process over an in-memory pair.
import { createInMemoryTransportPair } from "@acp-kit/protocol/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import { connectToAgent, textOf } from "../src/index.js";
import { allowOnce } from "./support/allow-once.js";
import { kitAgent } from "./support/kit-agent.js";

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

async function connect() {
  const [clientEnd, agentEnd] = createInMemoryTransportPair();
  const served = kitAgent.serve(agentEnd);
  cleanup.push(async () => served.close?.());
  const client = await connectToAgent(clientEnd, {
    info: { name: "acp-kit-client", version: "0.0.0" },
    handlers: allowOnce,
  });
  cleanup.push(() => client.close());
  return client;
}

describe("interop: @acp-kit/client <-> @acp-kit/agent", () => {
  it("a full turn with a permission request, a tool call and a terminal", async () => {
    const client = await connect();
    const session = await client.newSession({ cwd: "/w" });
    const turn = session.prompt("edit main.ts");
    const messageId = await turn.messageId;
    expect(await turn.done).toEqual({ stopReason: "end_turn" });
    const snapshot = session.store.getSnapshot();
    expect(textOf(snapshot.messages.user.get(messageId)!.content)).toBe("edit main.ts");
    expect(snapshot.messages.user.size).toBe(1);
    const texts = [...snapshot.messages.agent.values()].map((m) => textOf(m.content));
    expect(texts).toEqual(["Editing.", "Done."]);
    const [call] = [...snapshot.toolCalls.values()];
    expect(call).toMatchObject({ title: "Edit main.ts", kind: "edit", status: "completed" });
    const [terminal] = [...snapshot.terminals.values()];
    expect(new TextDecoder().decode(terminal!.output)).toBe("ok\n");
    expect(terminal!.exitStatus).toEqual({ exitCode: 0 });
    expect(snapshot.state).toMatchObject({ state: "idle", stopReason: "end_turn" });
  });

  it("cancel: the tool call is marked cancelled at once and the turn ends cancelled", async () => {
    const client = await connect();
    const session = await client.newSession({ cwd: "/w" });
    const turn = session.prompt("watch the files");
    for await (const update of turn) {
      if (update.sessionUpdate === "tool_call_update" && (update as { status?: string }).status === "in_progress")
        break;
    }
    const cancelling = turn.cancel();
    expect([...session.store.getSnapshot().toolCalls.values()].map((c) => c.status)).toEqual(["cancelled"]);
    await cancelling;
    expect(await turn.done).toEqual({ stopReason: "cancelled" });
    // A new prompt works after the idle.
    const next = session.prompt("edit again");
    expect(await next.done).toEqual({ stopReason: "end_turn" });
  });

  it("resume with replay on a second connection rebuilds the same history", async () => {
    const first = await connect();
    const session = await first.newSession({ cwd: "/w" });
    await session.prompt("edit main.ts").done;
    const live = session.store.getSnapshot();

    const second = await connect();
    const resumed = await second.resumeSession(session.sessionId, { cwd: "/w", replay: true });
    // Notices are live-only; a resume snapshot may or may not repeat the last stop reason.
    const { notices: _a, state: replayedState, ...replayed } = resumed.store.getSnapshot();
    const { notices: _b, state: liveState, ...expected } = live;
    expect(replayed).toEqual(expected);
    expect(replayedState.state).toBe(liveState.state);
  });
});
