// Interop with the official ACP SDK (2.4.0): its WebSocket client against our server, and our
// client against its server. Both sides speak real WebSockets on 127.0.0.1.
import { createServer } from "node:http";
import { Connection } from "@acp-kit/protocol/jsonrpc";
import { createNodeWebSocketUpgradeHandler } from "@agentclientprotocol/sdk/experimental/node";
import { AcpServer } from "@agentclientprotocol/sdk/experimental/server";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { createWebSocketStream } from "@agentclientprotocol/sdk/experimental/ws-client";
import { describe, expect, it } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import { connectWebSocket } from "../src/node/index.js";
import { onCleanup, startServer } from "./support.js";

const agentInfo = { name: "interop-agent", version: "1.0.0" };
const clientInfo = { name: "interop-client", version: "1.0.0" };

describe("interop with the official SDK", () => {
  it("the SDK's WebSocket client talks to our server", async () => {
    const server = await startServer({
      onConnection: (transport) => {
        const connection = new Connection(transport);
        connection.onRequest("initialize", () => ({ protocolVersion: 2, info: agentInfo, capabilities: {} }));
        connection.onRequest("_acpkit/echo", async (params) => {
          await connection.notify("session/update", {
            sessionId: "s-1",
            update: {
              sessionUpdate: "agent_message_chunk",
              messageId: "m-1",
              content: { type: "text", text: "hello from acp-kit" },
            },
          });
          return { echoed: params };
        });
        connection.listen();
      },
    });

    const updates: unknown[] = [];
    const client = acp.client().onNotification("session/update", (context) => {
      updates.push(context.params);
    });
    const stream = createWebSocketStream(server.url, { WebSocket: WebSocket as never });
    const result = await client.connectWith(stream, async (agent) => {
      const initialized = await agent.request("initialize", { protocolVersion: 2, info: clientInfo, capabilities: {} });
      const echoed = await agent.request<{ echoed: unknown }>("_acpkit/echo", { n: 42 });
      return { initialized, echoed };
    });
    expect(result.initialized.protocolVersion).toBe(2);
    expect(result.initialized.info).toEqual(agentInfo);
    expect(result.echoed).toEqual({ echoed: { n: 42 } });
    expect(updates).toEqual([
      {
        sessionId: "s-1",
        update: {
          sessionUpdate: "agent_message_chunk",
          messageId: "m-1",
          content: { type: "text", text: "hello from acp-kit" },
        },
      },
    ]);
  });

  it("our client talks to the SDK's WebSocket server (and sees its Acp-Connection-Id)", async () => {
    const agent = acp.agent().onRequest("initialize", (context) => ({
      protocolVersion: 2,
      info: agentInfo,
      capabilities: {},
      _meta: { sawClient: context.params.info.name },
    }));
    const acpServer = new AcpServer({ agent });
    const wss = new WebSocketServer({ noServer: true });
    const http = createServer((_request, response) => response.writeHead(404).end());
    http.on("upgrade", createNodeWebSocketUpgradeHandler(acpServer, wss));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    onCleanup(async () => {
      await acpServer.close();
      wss.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    });
    const port = (http.address() as { port: number }).port;

    const transport = await connectWebSocket(`ws://127.0.0.1:${port}/acp`);
    expect(transport.connectionId).toMatch(/\S+/);
    const connection = new Connection(transport);
    connection.listen();
    onCleanup(() => connection.close());
    const result = await connection.request<{ protocolVersion: number; info: unknown; _meta: unknown }>("initialize", {
      protocolVersion: 2,
      info: clientInfo,
      capabilities: {},
    });
    expect(result.protocolVersion).toBe(2);
    expect(result.info).toEqual(agentInfo);
    expect(result._meta).toEqual({ sawClient: "interop-client" });
  });
});
