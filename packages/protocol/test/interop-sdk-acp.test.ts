// The typed ACP layer against the official SDK's v2 apps (through the stream adapters):
// initialize both ways, an agent -> client request and session/update notifications.

import { createAgentSideConnection, createClientSideConnection, negotiateProtocolVersion } from "@acp-kit/protocol";
import { createInMemoryTransportPair, streamFromTransport } from "@acp-kit/protocol/jsonrpc";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { afterEach, describe, expect, it } from "vitest";

const info = { name: "acp-kit", version: "0.0.0" };
const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("typed client (acp-kit) <-> SDK agent", () => {
  it("initializes and receives the SDK agent's session/update notifications", async () => {
    const [ours, theirs] = createInMemoryTransportPair();
    let sdkAgent: acp.AgentConnection | undefined;
    const agentApp = acp
      .agent({ name: "sdk-agent" })
      .onConnect((connection) => {
        sdkAgent = connection;
      })
      .onRequest("initialize", ({ params }) => ({
        protocolVersion: Math.min(params.protocolVersion, 2),
        info: { name: "sdk-agent", version: "2.4.0" },
        capabilities: {},
      }));
    const sdkConnection = agentApp.connect(streamFromTransport(theirs) as unknown as acp.Stream);
    const client = createClientSideConnection(ours, { validateOutgoing: true });
    const updates: SessionUpdate[] = [];
    client.onNotification("session/update", (params) => void updates.push(params.update));
    client.listen();
    cleanups.push(
      () => client.close(),
      () => sdkConnection.close(),
    );

    const result = await client.request("initialize", { protocolVersion: 2, info, capabilities: {} });
    expect(result).toMatchObject({ protocolVersion: 2, info: { name: "sdk-agent" } });

    await sdkAgent!.client.notify("session/update", {
      sessionId: "s1",
      update: { sessionUpdate: "agent_message_chunk", messageId: "m1", content: { type: "text", text: "hello" } },
    });
    await expect
      .poll(() => updates)
      .toEqual([{ sessionUpdate: "agent_message_chunk", messageId: "m1", content: { type: "text", text: "hello" } }]);
  });
});

describe("SDK client <-> typed agent (acp-kit)", () => {
  it("answers the SDK's initialize and asks the SDK client for permission", async () => {
    const [ours, theirs] = createInMemoryTransportPair();
    const agent = createAgentSideConnection(ours, { validateOutgoing: true });
    const outcomes: unknown[] = [];
    agent.onRequest("initialize", (params) => ({
      protocolVersion: negotiateProtocolVersion(params.protocolVersion),
      info,
      // It serves session/list: it advertises sessions (the typed connection answers -32601 otherwise).
      capabilities: { session: {} },
    }));
    agent.onRequest("session/list", async (_params, ctx) => {
      const permission = await ctx.connection.request("session/request_permission", {
        sessionId: "s1",
        title: "List sessions?",
        options: [{ optionId: "yes", name: "Yes", kind: "allow_once" }],
      });
      outcomes.push(permission.outcome);
      return { sessions: [] };
    });
    agent.listen();
    cleanups.push(() => agent.close());

    const permissionRequests: unknown[] = [];
    const clientApp = acp.client({ name: "sdk-client" }).onRequest("session/request_permission", ({ params }) => {
      permissionRequests.push(params);
      return { outcome: { outcome: "selected", optionId: "yes" } };
    });
    const outcome = await clientApp.connectWith(streamFromTransport(theirs) as unknown as acp.Stream, async (ctx) => {
      const init = await ctx.request("initialize", {
        protocolVersion: 2,
        info: { name: "sdk-client", version: "2.4.0" },
      });
      const list = await ctx.request("session/list", {});
      return { init, list };
    });
    expect(outcome.init).toMatchObject({ protocolVersion: 2, info });
    expect(outcome.list).toMatchObject({ sessions: [] });
    expect(permissionRequests).toEqual([expect.objectContaining({ sessionId: "s1", title: "List sessions?" })]);
    expect(outcomes).toEqual([{ outcome: "selected", optionId: "yes" }]);
  });
});
