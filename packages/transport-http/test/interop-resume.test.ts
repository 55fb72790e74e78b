// Resuming a session across connections with the official SDK 2.4.0 over Streamable HTTP, both
// directions: our connectHttp client resumes, with replay, a session of the SDK's AcpServer (its
// v2 agent keeps sessions past their connection), and the SDK's createHttpStream client resumes,
// with replay, a session of our server. Each replay must rebuild what the live turn built.
import { SessionStore } from "@acp-kit/client";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { createHttpStream } from "@agentclientprotocol/sdk/experimental/http-client";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { describe, expect, it, vi } from "vitest";
import { connectHttp } from "../src/index.js";
import { startSdkServer } from "./sdk-agent.js";
import { connectClient, onCleanup, startAgentServer } from "./support.js";

describe("our connectHttp resumes a session of the SDK's AcpServer", () => {
  it("on a second connection, with replay: the store equals the live one", async () => {
    const url = await startSdkServer();
    const first = await connectClient(await connectHttp(url));
    const session = await first.newSession({ cwd: "/w" });
    expect(await session.prompt("edit").done).toEqual({ stopReason: "end_turn" });
    const live = session.store.getSnapshot();
    expect([...live.toolCalls.values()].map((c) => c.status)).toEqual(["completed"]);
    await first.close();

    const second = await connectClient(await connectHttp(url));
    const resumed = await second.resumeSession(session.sessionId, { cwd: "/w", replay: true });
    const { notices: _a, state: replayedState, ...replayed } = resumed.store.getSnapshot();
    const { notices: _b, state: liveState, ...expected } = live;
    expect(replayed).toEqual(expected);
    expect(replayedState).toMatchObject({ state: "idle", stopReason: liveState.stopReason });
    // The resumed session takes a new turn on the new connection.
    expect(await resumed.prompt("edit again").done).toEqual({ stopReason: "end_turn" });
    expect(resumed.store.getSnapshot().toolCalls.size).toBe(2);
  });
});

/** An SDK client connection that records every `session/update` it gets, by session. */
function sdkClient(url: string) {
  const updates = new Map<string, SessionUpdate[]>();
  const app = acp
    .client({ name: "sdk-http-client" })
    .onRequest("session/request_permission", ({ params }) => {
      const option = params.options.find((o) => o.kind === "allow_once");
      return { outcome: { outcome: "selected", optionId: option?.optionId ?? "" } };
    })
    .onNotification("session/update", ({ params }) => {
      const list = updates.get(params.sessionId) ?? [];
      list.push(params.update as unknown as SessionUpdate);
      updates.set(params.sessionId, list);
    });
  const connection = app.connect(createHttpStream(url));
  onCleanup(() => connection.close());
  const initialize = () =>
    connection.agent.request("initialize", {
      protocolVersion: acp.PROTOCOL_VERSION,
      info: { name: "sdk", version: "1" },
      capabilities: {},
    });
  return { connection, updates, initialize };
}

/** What a list of updates builds (our store's fold), without the session state and notices. */
function folded(updates: readonly SessionUpdate[]) {
  const store = new SessionStore();
  store.applyAll(updates);
  const { notices: _n, state, ...history } = store.getSnapshot();
  return { history, state: state.state };
}

describe("the SDK's createHttpStream resumes a session of our server", () => {
  it("on a second connection, with replay: the replayed updates build what the live ones did", async () => {
    const server = await startAgentServer();
    const first = sdkClient(server.url);
    await first.initialize();
    const { sessionId } = await first.connection.agent.request("session/new", { cwd: "/w", mcpServers: [] });
    await first.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "edit main.ts" }],
    });
    const isIdle = (u: SessionUpdate) => u.sessionUpdate === "state_update" && u.state === "idle";
    await vi.waitFor(() => expect(first.updates.get(sessionId)?.some(isIdle)).toBe(true), { timeout: 15_000 });
    const live = folded(first.updates.get(sessionId) ?? []);
    expect(live.history.toolCalls.size).toBe(1);
    await first.connection.close();

    const second = sdkClient(server.url);
    await second.initialize();
    await second.connection.agent.request("session/resume", { sessionId, cwd: "/w", replayFrom: { type: "start" } });
    // The replay and the state snapshot come on the session's stream, the response on the
    // connection's: wait for the snapshot that ends the replay.
    await vi.waitFor(() => expect(second.updates.get(sessionId)?.some(isIdle)).toBe(true), { timeout: 15_000 });
    const replayed = folded(second.updates.get(sessionId) ?? []);
    expect(replayed.history).toEqual(live.history);
    expect(replayed.state).toBe("idle");
    // The resumed session takes a new turn on the new connection.
    const before = second.updates.get(sessionId)?.length ?? 0;
    await second.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "count 2" }] });
    await vi.waitFor(() => expect(second.updates.get(sessionId)?.slice(before).some(isIdle)).toBe(true), {
      timeout: 15_000,
    });
    expect(folded(second.updates.get(sessionId) ?? []).history.messages.agent.size).toBe(
      live.history.messages.agent.size + 2,
    );
  });
});
