// Interop with the official SDK 2.4.0 over Streamable HTTP, both directions: its
// createHttpStream client against our server, and our connectHttp client against its AcpServer
// (through its Node adapter). Each direction runs a turn with a permission request and a
// cancelled turn; interop-resume.test.ts resumes sessions across connections both ways.
import { textOf } from "@acp-kit/client";
import { createHttpStream } from "@agentclientprotocol/sdk/experimental/http-client";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { describe, expect, it } from "vitest";
import { connectHttp } from "../src/index.js";
import { startSdkServer } from "./sdk-agent.js";
import { connectClient, onCleanup, startAgentServer } from "./support.js";

describe("the SDK's createHttpStream against our server", () => {
  it("a turn with a permission request, then a cancelled turn", async () => {
    const server = await startAgentServer();
    const permissions: unknown[] = [];
    const app = acp.client({ name: "sdk-http-client" }).onRequest("session/request_permission", ({ params }) => {
      permissions.push(params);
      const option = (params as { options: { optionId: string; kind: string }[] }).options.find(
        (o) => o.kind === "allow_once",
      );
      return { outcome: { outcome: "selected", optionId: option?.optionId ?? "" } };
    });
    const connection = app.connect(createHttpStream(server.url));
    onCleanup(() => connection.close());
    const agent = connection.agent;
    const init = await agent.request("initialize", {
      protocolVersion: acp.PROTOCOL_VERSION,
      info: { name: "sdk", version: "1" },
      capabilities: {},
    });
    expect(init.protocolVersion).toBe(2);
    const session = await agent.buildSession("/w").start();

    const run = async (text: string, cancelOn?: (update: { sessionUpdate: string; status?: string }) => boolean) => {
      const updates: { sessionUpdate: string; status?: string; content?: unknown }[] = [];
      const inserted = session.prompt(text);
      for (;;) {
        const message = await session.nextUpdate(AbortSignal.timeout(15_000));
        if (message.kind === "stop") {
          await inserted;
          return { stopReason: message.stopReason, updates };
        }
        const update = message.update as unknown as { sessionUpdate: string; status?: string };
        updates.push(update);
        if (cancelOn?.(update)) await agent.notify("session/cancel", { sessionId: session.sessionId });
      }
    };
    const turn = await run("edit main.ts");
    expect(turn.stopReason).toBe("end_turn");
    expect(permissions).toHaveLength(1);
    expect(turn.updates.filter((u) => u.sessionUpdate === "agent_message").length).toBe(2);
    let cancelled = false;
    const watch = await run("watch the files", (u) => {
      if (cancelled || u.sessionUpdate !== "tool_call_update" || u.status !== "in_progress") return false;
      cancelled = true;
      return true;
    });
    expect(watch.stopReason).toBe("cancelled");
    session.dispose();
  });
});

describe("our connectHttp against the SDK's AcpServer", () => {
  it("a turn with a permission request, then a cancelled turn", async () => {
    const url = await startSdkServer();
    const transport = await connectHttp(url);
    const client = await connectClient(transport);
    expect(transport.connectionId).toMatch(/\S+/);
    const session = await client.newSession({ cwd: "/w" });
    expect(await session.prompt("edit").done).toEqual({ stopReason: "end_turn" });
    const snapshot = session.store.getSnapshot();
    expect([...snapshot.messages.agent.values()].map((m) => textOf(m.content))).toEqual(["Hello from the SDK."]);
    expect([...snapshot.toolCalls.values()].map((c) => c.status)).toEqual(["completed"]);
    const slow = session.prompt("/slow");
    for await (const update of slow) if (update.sessionUpdate === "agent_message_chunk") break;
    await slow.cancel();
    expect(await slow.done).toEqual({ stopReason: "cancelled" });
  });
});

describe("the SDK's WebSocket client on the same /acp endpoint as Streamable HTTP", () => {
  it("initializes and runs a turn over the upgrade", async () => {
    const { createWebSocketStream } = await import("@agentclientprotocol/sdk/experimental/ws-client");
    const { WebSocket } = await import("ws");
    const server = await startAgentServer();
    const app = acp.client({ name: "sdk-ws-client" }).onRequest("session/request_permission", () => ({
      outcome: { outcome: "cancelled" },
    }));
    const connection = app.connect(
      createWebSocketStream(server.url.replace(/^http/, "ws"), { WebSocket: WebSocket as never }),
    );
    onCleanup(() => connection.close());
    const init = await connection.agent.request("initialize", {
      protocolVersion: 2,
      info: { name: "sdk", version: "1" },
      capabilities: {},
    });
    expect(init.protocolVersion).toBe(2);
    const session = await connection.agent.buildSession("/w").start();
    const inserted = session.prompt("count 3");
    let stop: unknown;
    for (;;) {
      const message = await session.nextUpdate(AbortSignal.timeout(15_000));
      if (message.kind === "stop") {
        stop = message.stopReason;
        break;
      }
    }
    await inserted;
    expect(stop).toBe("end_turn");
    session.dispose();
  });
});
