// A small v2 agent written with the official SDK, for the interop tests: "/slow" streams until
// cancelled, anything else streams a reply around a tool call that asks permission. Its sessions
// outlive their connection (one history per server), so a session can be resumed, with replay,
// from another connection.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createNodeHttpHandler } from "@agentclientprotocol/sdk/experimental/node";
import { AcpServer } from "@agentclientprotocol/sdk/experimental/server";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { onCleanup } from "./support.js";

type Histories = Map<string, { updates: acp.SessionUpdate[]; stopReason: "end_turn" | "cancelled" | undefined }>;

/** The SDK's `AcpServer` with this agent, through its Node adapter; resolves with the endpoint's URL. */
export async function startSdkServer(): Promise<string> {
  const histories: Histories = new Map();
  const acpServer = new AcpServer({ createAgent: () => sdkAgent(histories) });
  const http = createServer(createNodeHttpHandler(acpServer));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  onCleanup(async () => {
    await acpServer.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/acp`;
}

function sdkAgent(histories: Histories): acp.AgentApp {
  const work = new Map<string, AbortController>();
  return acp
    .agent({ name: "sdk-http-agent" })
    .onRequest("initialize", () => ({
      protocolVersion: 2,
      info: { name: "sdk-http-agent", version: "2.4.0" },
      capabilities: { session: {} },
    }))
    .onRequest("session/new", () => {
      const sessionId = `sdk_${crypto.randomUUID()}`;
      histories.set(sessionId, { updates: [], stopReason: undefined });
      return { sessionId };
    })
    .onRequest("session/resume", async ({ params, client }) => {
      const history = histories.get(params.sessionId);
      if (!history) throw acp.RequestError.sessionNotFound(params.sessionId);
      const { sessionId } = params;
      // Replay, then the current state, then the response (the order the protocol asks for).
      if (params.replayFrom?.type === "start")
        for (const update of history.updates) await client.notify("session/update", { sessionId, update });
      const state = { sessionUpdate: "state_update", state: "idle", stopReason: history.stopReason ?? "end_turn" };
      await client.notify("session/update", { sessionId, update: state as acp.SessionUpdate });
      return {};
    })
    .onRequest("session/prompt", async ({ params, client }) => {
      const { sessionId } = params;
      const history = histories.get(sessionId);
      if (!history) throw acp.RequestError.sessionNotFound(sessionId);
      const update = (u: acp.SessionUpdate) => {
        // The history keeps what a replay resends: everything but the session's states.
        if (u.sessionUpdate !== "state_update") history.updates.push(u);
        return client.notify("session/update", { sessionId, update: u });
      };
      const controller = new AbortController();
      work.set(sessionId, controller);
      await update({ sessionUpdate: "state_update", state: "running" });
      const userId = `user_${crypto.randomUUID()}`;
      await update({ sessionUpdate: "user_message", messageId: userId, content: params.prompt });
      const text = params.prompt.map((b) => (b.type === "text" ? b.text : "")).join("");
      void (async () => {
        let stopReason: "end_turn" | "cancelled" = "end_turn";
        const messageId = `msg_${crypto.randomUUID()}`;
        if (text.startsWith("/slow")) {
          for (let i = 0; !controller.signal.aborted; i++) {
            await update({
              sessionUpdate: "agent_message_chunk",
              messageId,
              content: { type: "text", text: `tick ${i} ` },
            });
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          stopReason = "cancelled";
        } else {
          await update({
            sessionUpdate: "agent_message_chunk",
            messageId,
            content: { type: "text", text: "Hello from the SDK." },
          });
          const toolCallId = `call_${crypto.randomUUID()}`;
          await update({
            sessionUpdate: "tool_call_update",
            toolCallId,
            title: "Edit",
            kind: "edit",
            status: "pending",
          });
          const answer = await client.request("session/request_permission", {
            sessionId,
            title: "Allow?",
            options: [
              { optionId: "allow", name: "Allow", kind: "allow_once" },
              { optionId: "reject", name: "Reject", kind: "reject_once" },
            ],
            subject: { type: "tool_call", toolCall: { toolCallId, status: "pending" } },
          });
          const allowed = answer.outcome.outcome === "selected" && answer.outcome.optionId === "allow";
          await update({ sessionUpdate: "tool_call_update", toolCallId, status: allowed ? "completed" : "failed" });
        }
        history.stopReason = stopReason;
        await update({ sessionUpdate: "state_update", state: "idle", stopReason } as acp.SessionUpdate);
      })();
      return { messageId: userId };
    })
    .onNotification("session/cancel", ({ params }) => {
      work.get(params.sessionId)?.abort();
    });
}
