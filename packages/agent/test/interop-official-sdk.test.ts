/**
 * Interop: the official SDK's v2 client (`ClientApp`, which validates everything it receives
 * with its own schemas) runs a prompt turn with a permission request, a cancelled turn and a
 * resume with replay against our agent, and sees a conforming lifecycle.
 */

import { createInMemoryTransportPair, streamFromTransport, type Transport } from "@acp-kit/protocol/jsonrpc";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { afterEach, describe, expect, it } from "vitest";
import { defineAgent } from "../src/index.js";

const agent = defineAgent({
  info: { name: "interop-agent", version: "1.0.0" },
  validateOutgoing: true,
  async prompt(turn) {
    if (turn.text === "wait") {
      await turn.message().append("waiting...");
      await new Promise((_, reject) =>
        turn.signal.addEventListener("abort", () => reject(turn.signal.reason), { once: true }),
      );
    }
    const call = turn.toolCall({ title: "Write notes.md", kind: "edit" });
    const decision = await call.requestPermission();
    if (!decision.granted) {
      await call.fail();
      return "refusal";
    }
    await call.complete({ content: ["written"] });
    const reply = turn.message();
    for (const word of ["done ", "with ", turn.text]) await reply.append(word);
    return "end_turn";
  },
});

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Records what reaches the client's transport, in wire order, before the SDK sees it. */
function recording(transport: Transport, wire: { method?: string; id?: unknown; params?: any }[]): Transport {
  return {
    start: (sink) =>
      transport.start({
        message: (payload) => {
          wire.push(JSON.parse(payload));
          return sink.message(payload);
        },
        closed: (error) => sink.closed(error),
      }),
    send: (payload) => transport.send(payload),
    close: () => transport.close(),
  };
}

function connectOfficialClient(onUpdate?: (params: acp.UpdateSessionNotification) => void, answerPermissions = true) {
  const [agentSide, rawClientSide] = createInMemoryTransportPair();
  const wire: { method?: string; id?: unknown; params?: any }[] = [];
  const clientSide = recording(rawClientSide, wire);
  const handle = agent.serve(agentSide);
  const permissions: acp.RequestPermissionRequest[] = [];
  const app = new acp.ClientApp().onRequest("session/request_permission", async (ctx) => {
    permissions.push(ctx.params);
    if (!answerPermissions) {
      // A user who never answers: only the agent's $/cancel_request ends the wait.
      await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
      return { outcome: { outcome: "cancelled" } };
    }
    return { outcome: { outcome: "selected", optionId: "allow_once" } };
  });
  if (onUpdate) app.onNotification("session/update", (ctx) => onUpdate(ctx.params));
  const connection = app.connect(streamFromTransport(clientSide) as unknown as acp.Stream);
  cleanups.push(async () => {
    connection.close();
    await handle.close();
  });
  /** The pair is quiet and the SDK's promise-driven dispatch ran dry (see `InMemoryTransport.settled`). */
  const settled = () => agentSide.settled();
  return { connection, permissions, wire, settled };
}

async function initialize(connection: acp.ClientConnection) {
  return connection.agent.request("initialize", {
    protocolVersion: 2,
    info: { name: "official-client", version: "2.4.0" },
    capabilities: {},
  });
}

async function collectUntilStop(session: acp.ActiveSession): Promise<acp.ActiveSessionMessage[]> {
  const messages: acp.ActiveSessionMessage[] = [];
  for (;;) {
    const message = await session.nextUpdate();
    messages.push(message);
    if (message.kind === "stop") return messages;
  }
}

describe("the official v2 client against our agent", () => {
  it("negotiates and runs a prompt turn with a permission request", async () => {
    const { connection, permissions } = connectOfficialClient();
    const init = await initialize(connection);
    expect(init.protocolVersion).toBe(2);
    const session = await connection.agent.buildSession("/work/project").start();
    const { messageId } = await session.prompt("notes");
    const messages = await collectUntilStop(session);
    const updates = messages.map((m) => m.update as { sessionUpdate: string; state?: string; messageId?: string });
    expect(updates.filter((u) => u.sessionUpdate === "state_update").map((u) => u.state)).toEqual([
      "running",
      "requires_action",
      "running",
      "idle",
    ]);
    expect(updates.find((u) => u.sessionUpdate === "user_message")?.messageId).toBe(messageId);
    const stop = messages.at(-1)!;
    expect(stop.kind === "stop" && stop.stopReason).toBe("end_turn");
    expect(permissions).toHaveLength(1);
    expect(permissions[0]!.subject).toMatchObject({ type: "tool_call" });
    const text = updates
      .filter((u) => u.sessionUpdate === "agent_message_chunk")
      .map((u) => (u as unknown as { content: { text: string } }).content.text)
      .join("");
    expect(text).toBe("done with notes");
    session.dispose();
  });

  it("sees a cancelled turn end with idle cancelled and nothing after it", async () => {
    const { connection } = connectOfficialClient();
    await initialize(connection);
    const session = await connection.agent.buildSession("/work/project").start();
    await session.prompt("wait");
    const first = await session.nextUpdate(); // running
    expect((first.update as { state?: string }).state).toBe("running");
    await session.nextUpdate(); // user_message
    await session.nextUpdate(); // waiting... chunk
    await connection.agent.notify("session/cancel", { sessionId: session.sessionId });
    const rest = await collectUntilStop(session);
    const stop = rest.at(-1)!;
    expect(stop.kind === "stop" && stop.stopReason).toBe("cancelled");
    // The session is usable again right away.
    await session.prompt("again");
    const next = await collectUntilStop(session);
    expect(next.at(-1)!.kind === "stop" && (next.at(-1) as { stopReason?: string }).stopReason).toBe("end_turn");
    session.dispose();
  });

  it("withdraws a pending permission request from the official client on cancel", async () => {
    const { connection, permissions, wire } = connectOfficialClient(undefined, false);
    await initialize(connection);
    const session = await connection.agent.buildSession("/work/project").start();
    await session.prompt("notes");
    const seen: string[] = [];
    while (permissions.length === 0) {
      const m = await session.nextUpdate();
      seen.push((m.update as { state?: string }).state ?? m.update.sessionUpdate);
    }
    await connection.agent.notify("session/cancel", { sessionId: session.sessionId });
    const rest = await collectUntilStop(session);
    const stop = rest.at(-1)!;
    expect(stop.kind === "stop" && stop.stopReason).toBe("cancelled");
    expect(wire.some((m) => m.method === "$/cancel_request")).toBe(true);
    expect([
      ...seen,
      ...rest.map((m) => (m.update as { state?: string; status?: string }).state ?? m.update.sessionUpdate),
    ]).toEqual(["running", "user_message", "tool_call_update", "requires_action", "tool_call_update", "idle"]);
    session.dispose();
  });

  it("resumes a session on a new connection: replay, then the snapshot, then the response", async () => {
    const first = connectOfficialClient();
    await initialize(first.connection);
    const session = await first.connection.agent.buildSession("/work/project").start();
    const { messageId } = await session.prompt("resume me");
    await collectUntilStop(session);
    session.dispose();
    const sessionId = session.sessionId;

    const seen: { sessionUpdate: string; state?: string; messageId?: string }[] = [];
    const second = connectOfficialClient((params) => seen.push(params.update as never));
    await initialize(second.connection);
    await second.connection.agent.request("session/resume", {
      sessionId,
      cwd: "/work/project",
      replayFrom: { type: "start" },
    });
    // The SDK dispatches notification handlers asynchronously; wire order is checked below.
    await second.settled();
    expect(seen.map((u) => u.sessionUpdate)).toEqual([
      "user_message",
      "tool_call_update",
      "agent_message",
      "state_update",
    ]);
    expect(seen[0]!.messageId).toBe(messageId);
    // The resume snapshot repeats the last stop reason for context; the official client accepts it.
    expect(seen.at(-1)).toEqual({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
    const order = second.wire
      .filter((m) => m.method === "session/update" || m.id === 1)
      .map((m) => m.method ?? "response");
    expect(order).toEqual(["session/update", "session/update", "session/update", "session/update", "response"]);
  });
});
