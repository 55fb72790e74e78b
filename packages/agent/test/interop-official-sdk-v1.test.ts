/**
 * Interop: the official SDK's v1 client (its root API, which validates what it receives with
 * its v1 schemas and strips what they do not know) drives our agent through a turn with an
 * edit permission, a diff and a terminal, and through a cancelled turn. What its handlers get
 * must be what the agent sent (nothing stripped or dropped), with v1's values only: the
 * cancelled tool call `failed`, the cancelled plan entries kept, the permission not renaming
 * the call, the edit a v1 diff, the terminal's output text.
 */
import { createInMemoryTransportPair, streamFromTransport, type Transport } from "@acp-kit/protocol/jsonrpc";
import * as acp from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { defineAgent } from "../src/index.js";

const FILE = "/w/src/greeting.ts";
const PATCH = `--- ${FILE}\n+++ ${FILE}\n@@ -1 +1 @@\n-old\n+new\n`;

const agent = defineAgent({
  info: { name: "interop-v1-agent", version: "1.0.0" },
  validateOutgoing: true,
  async prompt(turn) {
    const plan = turn.plan([
      { content: "Edit", status: "in_progress" },
      { content: "Test", status: "pending" },
    ]);
    const edit = turn.toolCall({ title: "Edit src/greeting.ts", kind: "edit" });
    const decision = await edit.requestPermission({
      title: "Allow editing src/greeting.ts?",
      description: "Replace it",
    });
    if (!decision.granted) {
      await plan.set([
        { content: "Edit", status: "cancelled" },
        { content: "Test", status: "cancelled" },
      ]);
      await edit.fail();
      return "end_turn";
    }
    await edit.diff([{ operation: "modify", path: FILE }], { format: "git_patch", text: PATCH });
    await edit.complete();
    const terminal = turn.terminal({ command: "npm test" });
    const run = turn.toolCall({
      title: "npm test",
      kind: "execute",
      content: [{ type: "terminal", terminalId: terminal.id }],
    });
    await terminal.write("all good\n");
    if (turn.text === "wait") {
      await new Promise<void>((resolve) => turn.signal.addEventListener("abort", () => resolve(), { once: true }));
      return "end_turn";
    }
    await run.complete();
    return "end_turn";
  },
});

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Records the agent's session/update params as they reach the client's transport, before the SDK reads them. */
function recording(transport: Transport, wire: unknown[]): Transport {
  return {
    start: (sink) =>
      transport.start({
        message: (payload) => {
          const message = JSON.parse(payload) as { method?: string; params?: unknown };
          if (message.method === "session/update") wire.push(message.params);
          return sink.message(payload);
        },
        closed: (error) => sink.closed(error),
      }),
    send: (payload) => transport.send(payload),
    close: () => transport.close(),
  };
}

async function officialV1Client(optionId: "allow_once" | "reject_once") {
  const [agentSide, clientSide] = createInMemoryTransportPair();
  const handle = agent.serve(agentSide);
  const onWire: unknown[] = [];
  const received: acp.SessionNotification[] = [];
  const permissions: acp.RequestPermissionRequest[] = [];
  const app = acp
    .client({ name: "official-v1-client" })
    .onRequest("session/request_permission", ({ params }) => {
      permissions.push(params);
      return { outcome: { outcome: "selected", optionId } };
    })
    .onNotification("session/update", ({ params }) => {
      received.push(params);
    });
  const connection = app.connect(streamFromTransport(recording(clientSide, onWire)) as unknown as acp.Stream);
  cleanups.push(async () => {
    connection.close();
    await handle.close();
  });
  const init = await connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  const { sessionId } = await connection.agent.request("session/new", { cwd: "/w", mcpServers: [] });
  /** The tool calls as the SDK's user merges them. */
  const toolCalls = () => {
    const calls = new Map<string, Record<string, unknown>>();
    for (const { update } of received)
      if (update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update") {
        const { sessionUpdate: _tag, ...fields } = update;
        calls.set(update.toolCallId, { ...calls.get(update.toolCallId), ...fields });
      }
    return [...calls.values()];
  };
  const settled = () => agentSide.settled();
  return { connection, init, sessionId, onWire, received, permissions, toolCalls, settled };
}

describe("the official SDK's v1 client against our agent", () => {
  it("a turn with an allowed edit: a v1 diff, the terminal's output as text, nothing stripped", async () => {
    const client = await officialV1Client("allow_once");
    expect(client.init.protocolVersion).toBe(1);
    const answer = await client.connection.agent.request("session/prompt", {
      sessionId: client.sessionId,
      prompt: [{ type: "text", text: "go" }],
    });
    expect(answer).toEqual({ stopReason: "end_turn" });
    await client.settled();
    expect(JSON.parse(JSON.stringify(client.received))).toEqual(client.onWire);
    expect(client.permissions[0]?.toolCall.title).toBeUndefined();
    expect(client.toolCalls()).toMatchObject([
      {
        title: "Edit src/greeting.ts",
        status: "completed",
        content: [{ type: "diff", path: FILE, oldText: "old\n", newText: "new\n" }],
      },
      {
        title: "npm test",
        status: "completed",
        content: [{ type: "content", content: { type: "text", text: "all good\n" } }],
      },
    ]);
  });

  it("a rejected edit: the cancelled plan entries stay, as pending", async () => {
    const client = await officialV1Client("reject_once");
    await client.connection.agent.request("session/prompt", {
      sessionId: client.sessionId,
      prompt: [{ type: "text", text: "go" }],
    });
    await client.settled();
    expect(JSON.parse(JSON.stringify(client.received))).toEqual(client.onWire);
    const plans = client.received.flatMap(({ update }) => (update.sessionUpdate === "plan" ? [update.entries] : []));
    expect(plans.at(-1)?.map((e) => e.status)).toEqual(["pending", "pending"]);
    expect(client.toolCalls()).toMatchObject([{ title: "Edit src/greeting.ts", status: "failed" }]);
  });

  it("a cancelled turn: the running tool call ends failed, not stuck in progress", async () => {
    const client = await officialV1Client("allow_once");
    const answer = client.connection.agent.request("session/prompt", {
      sessionId: client.sessionId,
      prompt: [{ type: "text", text: "wait" }],
    });
    await client.settled();
    await client.connection.agent.notify("session/cancel", { sessionId: client.sessionId });
    expect(await answer).toEqual({ stopReason: "cancelled" });
    await client.settled();
    expect(JSON.parse(JSON.stringify(client.received))).toEqual(client.onWire);
    expect(client.toolCalls().map((c) => [c.title, c.status])).toEqual([
      ["Edit src/greeting.ts", "completed"],
      ["npm test", "failed"],
    ]);
  });
});
