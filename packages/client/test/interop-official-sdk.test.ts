// Our client against an agent written with the official SDK's v2 API, over our in-memory
// transport bridged to the SDK's web-stream pair.

import { createInMemoryTransportPair, streamFromTransport } from "@acp-kit/protocol/jsonrpc";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { afterEach, describe, expect, it } from "vitest";
import { type AcpClient, connectToAgent, textOf } from "../src/index.js";

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

type Notify = (update: Record<string, unknown>) => Promise<void>;

/** A small agent on the official SDK: turn 1 asks permission for a tool; turn 2 runs until cancelled. */
function officialAgent() {
  let turns = 0;
  const cancelled = new Map<string, () => void>();
  const app = acp
    .agent({ name: "official-sdk-agent" })
    .onRequest("initialize", () => ({
      protocolVersion: 2,
      info: { name: "official-sdk-agent", version: "2.4.0" },
      capabilities: { session: {} },
    }))
    .onRequest("session/new", () => ({ sessionId: "sdk-session" }))
    .onNotification("session/cancel", ({ params }) => cancelled.get(params.sessionId)?.())
    .onRequest("session/prompt", ({ params, client }) => {
      const turn = ++turns;
      const messageId = `user-${turn}`;
      const send: Notify = (update) =>
        client.notify("session/update", { sessionId: params.sessionId, update } as never);
      // The response (insertion) goes first; the work continues after it.
      setTimeout(() => {
        void (async () => {
          await send({ sessionUpdate: "user_message", messageId, content: params.prompt });
          await send({ sessionUpdate: "state_update", state: "running" });
          if (turn === 1) {
            await send({
              sessionUpdate: "agent_message_chunk",
              messageId: "agent-1",
              content: { type: "text", text: "I will edit " },
            });
            await send({
              sessionUpdate: "agent_message_chunk",
              messageId: "agent-1",
              content: { type: "text", text: "main.ts." },
            });
            await send({
              sessionUpdate: "tool_call_update",
              toolCallId: "edit-1",
              title: "Edit main.ts",
              kind: "edit",
              status: "pending",
            });
            await send({ sessionUpdate: "state_update", state: "requires_action" });
            const answer = await client.request("session/request_permission", {
              sessionId: params.sessionId,
              title: "Allow editing main.ts?",
              subject: { type: "tool_call", toolCall: { toolCallId: "edit-1", locations: [{ path: "/w/main.ts" }] } },
              options: [
                { optionId: "allow", name: "Allow", kind: "allow_once" },
                { optionId: "deny", name: "Deny", kind: "reject_once" },
              ],
            });
            await send({ sessionUpdate: "state_update", state: "running" });
            const allowed =
              answer.outcome.outcome === "selected" && (answer.outcome as { optionId: string }).optionId === "allow";
            await send({
              sessionUpdate: "tool_call_update",
              toolCallId: "edit-1",
              status: allowed ? "completed" : "failed",
            });
            await send({
              sessionUpdate: "agent_message",
              messageId: "agent-2",
              content: [{ type: "text", text: allowed ? "Edited." : "Skipped." }],
            });
            await send({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
          } else {
            const cancelRequested = new Promise<void>((resolve) => cancelled.set(params.sessionId, resolve));
            await send({
              sessionUpdate: "tool_call_update",
              toolCallId: "build-1",
              title: "Build",
              kind: "execute",
              status: "in_progress",
            });
            const permission = client
              .request("session/request_permission", {
                sessionId: params.sessionId,
                title: "Deploy?",
                options: [{ optionId: "yes", name: "Yes", kind: "allow_once" }],
              })
              .catch((error: unknown) => ({ error }));
            await cancelRequested;
            const answer = await permission;
            await send({
              sessionUpdate: "agent_message",
              messageId: "agent-3",
              content: [{ type: "text", text: `permission: ${JSON.stringify(answer)}` }],
            });
            await send({ sessionUpdate: "tool_call_update", toolCallId: "build-1", status: "cancelled" });
            await send({ sessionUpdate: "state_update", state: "idle", stopReason: "cancelled" });
          }
        })();
      }, 0);
      return { messageId };
    });
  return app;
}

async function connect(): Promise<{ client: AcpClient; permissionTitles: string[] }> {
  const [clientEnd, agentEnd] = createInMemoryTransportPair();
  const connection = officialAgent().connect(streamFromTransport(agentEnd) as unknown as acp.Stream);
  cleanup.push(async () => connection.close?.());
  const permissionTitles: string[] = [];
  const client = await connectToAgent(clientEnd, {
    info: { name: "acp-kit-client", version: "0.0.0" },
    handlers: {
      requestPermission: (request, { session }) => {
        permissionTitles.push(request.title);
        if (request.title === "Deploy?") {
          // The user hits "stop" while this prompt is shown: the client answers it `cancelled`.
          void session?.cancel();
          return new Promise(() => {});
        }
        return { outcome: { outcome: "selected", optionId: "allow" } };
      },
    },
  });
  cleanup.push(() => client.close());
  return { client, permissionTitles };
}

describe("interop: @acp-kit/client <-> official SDK v2 agent", () => {
  it("a full turn with a permission request, then a cancelled turn", async () => {
    const { client, permissionTitles } = await connect();
    expect(client.agentInfo.name).toBe("official-sdk-agent");
    const session = await client.newSession({ cwd: "/w" });

    const turn = session.prompt("Please edit main.ts");
    expect(await turn.messageId).toBe("user-1");
    expect(await turn.done).toEqual({ stopReason: "end_turn" });
    let snapshot = session.store.getSnapshot();
    expect(permissionTitles).toEqual(["Allow editing main.ts?"]);
    expect(textOf(snapshot.messages.user.get("user-1")!.content)).toBe("Please edit main.ts");
    expect(textOf(snapshot.messages.agent.get("agent-1")!.content)).toBe("I will edit main.ts.");
    expect(snapshot.toolCalls.get("edit-1")).toMatchObject({
      title: "Edit main.ts",
      kind: "edit",
      status: "completed",
      locations: [{ path: "/w/main.ts" }],
    });
    expect(textOf(snapshot.messages.agent.get("agent-2")!.content)).toBe("Edited.");

    const second = session.prompt("Build and deploy");
    const tags: string[] = [];
    for await (const update of second) tags.push(update.sessionUpdate);
    expect(await second.done).toEqual({ stopReason: "cancelled" });
    expect(tags).toEqual([
      "user_message",
      "state_update",
      "tool_call_update",
      "agent_message",
      "tool_call_update",
      "state_update",
    ]);
    snapshot = session.store.getSnapshot();
    expect(snapshot.toolCalls.get("build-1")?.status).toBe("cancelled");
    expect(textOf(snapshot.messages.agent.get("agent-3")!.content)).toBe(
      `permission: {"outcome":{"outcome":"cancelled"}}`,
    );
    expect(snapshot.state).toMatchObject({ state: "idle", stopReason: "cancelled" });
    expect(permissionTitles).toEqual(["Allow editing main.ts?", "Deploy?"]);
  });
});
