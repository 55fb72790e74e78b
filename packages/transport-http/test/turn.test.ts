// Our client and our agent over Streamable HTTP and over WebSocket on the same endpoint.
import { textOf } from "@acp-kit/client";
import { connectWebSocket } from "@acp-kit/transport-ws/node";
import { describe, expect, it } from "vitest";
import { connectHttp } from "../src/index.js";
import { connectClient, startAgentServer } from "./support.js";

describe.each(["streamable-http", "websocket"] as const)("one /acp endpoint, %s", (profile) => {
  async function connect() {
    const server = await startAgentServer();
    const transport =
      profile === "streamable-http"
        ? await connectHttp(server.url)
        : await connectWebSocket(server.url.replace(/^http/, "ws"));
    return { server, client: await connectClient(transport) };
  }

  it("a turn with a permission request and a tool call", async () => {
    const { client } = await connect();
    const session = await client.newSession({ cwd: "/w" });
    const turn = session.prompt("edit main.ts");
    expect(await turn.done).toEqual({ stopReason: "end_turn" });
    const snapshot = session.store.getSnapshot();
    expect([...snapshot.messages.agent.values()].map((m) => textOf(m.content))).toEqual(["Editing.", "Done."]);
    expect([...snapshot.toolCalls.values()]).toMatchObject([{ title: "Edit main.ts", status: "completed" }]);
  });

  it("cancel ends the turn cancelled and the session takes the next prompt", async () => {
    const { client } = await connect();
    const session = await client.newSession({ cwd: "/w" });
    const turn = session.prompt("watch the files");
    for await (const update of turn) {
      if (update.sessionUpdate === "tool_call_update" && (update as { status?: string }).status === "in_progress")
        break;
    }
    await turn.cancel();
    expect(await turn.done).toEqual({ stopReason: "cancelled" });
    expect(await session.prompt("count 3").done).toEqual({ stopReason: "end_turn" });
  });

  it("resume with replay on a second connection rebuilds the same history", async () => {
    const { server, client } = await connect();
    const session = await client.newSession({ cwd: "/w" });
    await session.prompt("edit main.ts").done;
    const live = session.store.getSnapshot();
    const transport =
      profile === "streamable-http"
        ? await connectHttp(server.url)
        : await connectWebSocket(server.url.replace(/^http/, "ws"));
    const second = await connectClient(transport);
    const resumed = await second.resumeSession(session.sessionId, { cwd: "/w", replay: true });
    const { notices: _a, state: _s, ...replayed } = resumed.store.getSnapshot();
    const { notices: _b, state: _t, ...expected } = live;
    expect(replayed).toEqual(expected);
  });
});
