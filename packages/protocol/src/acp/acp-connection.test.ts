import { afterEach, describe, expect, it, vi } from "vitest";
import { METHODS } from "../generated/methods.js";
import type { SessionUpdate } from "../generated/types.js";
import { CANCEL_REQUEST_METHOD } from "../jsonrpc/cancellation.js";
import { ConnectionError, RequestError } from "../jsonrpc/errors.js";
import { createInMemoryTransportPair, type InMemoryTransport } from "../jsonrpc/in-memory-transport.js";
import { recordingLogger } from "../jsonrpc/test-support/raw-peer.js";
import { createAgentSideConnection, createClientSideConnection } from "./acp-connection.js";
import type { AcpConnectionOptions } from "./acp-connection-types.js";
import { connectionOf } from "./test-support/connection-of.js";
import { negotiateProtocolVersion } from "./version.js";

const info = { name: "test", version: "1.0.0" };
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  vi.unstubAllEnvs();
});

function typedPair(options: AcpConnectionOptions = {}) {
  const [ta, tb] = createInMemoryTransportPair();
  const agent = createAgentSideConnection(ta, options);
  const client = createClientSideConnection(tb, options);
  cleanups.push(
    () => agent.close(),
    () => client.close(),
  );
  return { agent, client };
}

/** A typed connection of `side` against a raw peer that records what arrives. */
function againstRawPeer<S extends "agent" | "client">(side: S, options: AcpConnectionOptions = {}) {
  const [ours, theirs] = createInMemoryTransportPair();
  const logs: { level: string; message: string; data?: unknown }[] = [];
  const connection = connectionOf(side, ours, { logger: recordingLogger(logs), ...options });
  const received: Record<string, unknown>[] = [];
  theirs.start({ message: (p) => void received.push(JSON.parse(p)), closed: () => undefined });
  cleanups.push(() => connection.close());
  const settle = () => theirs.settled();
  const send = (message: object) => void (theirs as InMemoryTransport).send(JSON.stringify(message));
  return { connection, received, logs, settle, send };
}

describe("typed ACP connection", () => {
  it("round-trips initialize with version negotiation and typed, decoded params", async () => {
    const { agent, client } = typedPair();
    agent.onRequest("initialize", (params, ctx) => {
      expect(ctx.connection).toBe(agent);
      expect(ctx.method).toBe("initialize");
      return { protocolVersion: negotiateProtocolVersion(params.protocolVersion), info, capabilities: {} };
    });
    agent.listen();
    client.listen();
    const result = await client.request("initialize", { protocolVersion: 7, info });
    expect(result.protocolVersion).toBe(2);
  });

  it("answers params that do not decode with -32602 carrying the decoder's path and message", async () => {
    const peer = againstRawPeer("agent");
    const handler = vi.fn(() => ({ protocolVersion: 2, info }));
    peer.connection.onRequest("initialize", handler);
    peer.connection.listen();
    peer.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "two", info } });
    peer.send({ jsonrpc: "2.0", id: 2, method: "initialize" });
    await peer.settle();
    expect(handler).not.toHaveBeenCalled();
    expect(peer.received).toEqual([
      {
        jsonrpc: "2.0",
        id: 1,
        error: {
          code: -32602,
          message: expect.stringContaining("/protocolVersion"),
          data: { path: "/protocolVersion", message: expect.any(String) },
        },
      },
      {
        jsonrpc: "2.0",
        id: 2,
        error: expect.objectContaining({ code: -32602, data: { path: "", message: expect.any(String) } }),
      },
    ]);
  });

  it("delivers session/update variants it does not know, with all their fields", async () => {
    const peer = againstRawPeer("client");
    const updates: SessionUpdate[] = [];
    peer.connection.onNotification("session/update", (params) => void updates.push(params.update));
    peer.connection.listen();
    peer.send({
      jsonrpc: "2.0",
      method: "session/update",
      params: { sessionId: "s1", update: { sessionUpdate: "_vendor_progress", percent: 40 } },
    });
    peer.send({
      jsonrpc: "2.0",
      method: "session/update",
      params: { sessionId: "s1", update: { sessionUpdate: "from_the_future", shape: { a: [1] } } },
    });
    await peer.settle();
    expect(updates).toEqual([
      { sessionUpdate: "_vendor_progress", percent: 40 },
      { sessionUpdate: "from_the_future", shape: { a: [1] } },
    ]);
  });

  it("drops a notification whose params do not decode, and logs where", async () => {
    const peer = againstRawPeer("client");
    const handler = vi.fn();
    peer.connection.onNotification("session/update", handler);
    peer.connection.listen();
    peer.send({
      jsonrpc: "2.0",
      method: "session/update",
      params: { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk" } },
    });
    await peer.settle();
    expect(handler).not.toHaveBeenCalled();
    expect(peer.received).toEqual([]);
    expect(peer.logs).toContainEqual(
      expect.objectContaining({ level: "warn", data: expect.objectContaining({ path: "/update/messageId" }) }),
    );
  });

  it("refuses to send invalid params: a local invalid_outgoing error naming method and path, nothing on the wire", async () => {
    const peer = againstRawPeer("agent", { validateOutgoing: true });
    peer.connection.listen();
    const bad = {
      sessionId: "s1",
      update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } },
    };
    const error = await peer.connection.notify("session/update", bad as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({
      kind: "invalid_outgoing",
      details: { method: "session/update", path: "/update/messageId" },
    });
    expect((error as Error).message).toContain("session/update");
    expect((error as Error).message).toContain("/update/messageId");
    const requestError = await peer.connection
      .request("session/request_permission", { sessionId: 5 } as never)
      .catch((e: unknown) => e);
    expect(requestError).toMatchObject({ kind: "invalid_outgoing", details: { method: "session/request_permission" } });
    await peer.settle();
    expect(peer.received).toEqual([]);
  });

  it("sends without checking when validateOutgoing is false", async () => {
    const peer = againstRawPeer("agent", { validateOutgoing: false });
    peer.connection.listen();
    await peer.connection.notify("session/update", {
      sessionId: "s1",
      update: { sessionUpdate: "agent_message_chunk" },
    } as never);
    await peer.settle();
    expect(peer.received).toHaveLength(1);
  });

  it("turns an invalid handler result into -32603 and logs the path", async () => {
    const peer = againstRawPeer("agent", { validateOutgoing: true });
    peer.connection.onRequest("initialize", async () => ({ protocolVersion: 2 }) as never);
    peer.connection.listen();
    peer.send({ jsonrpc: "2.0", id: 9, method: "initialize", params: { protocolVersion: 2, info } });
    await peer.settle();
    expect(peer.received).toEqual([{ jsonrpc: "2.0", id: 9, error: { code: -32603, message: "Internal error" } }]);
    expect(peer.logs).toContainEqual(
      expect.objectContaining({ level: "error", message: expect.stringContaining("/info") }),
    );
  });

  it("rejects a call whose result does not decode with a protocol_violation naming the path", async () => {
    const peer = againstRawPeer("client");
    peer.connection.listen();
    const call = peer.connection.request("session/list", {});
    await peer.settle();
    peer.send({ jsonrpc: "2.0", id: (peer.received[0] as { id: number }).id, result: { sessions: [], nextCursor: 5 } });
    const error = await call.catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: "ConnectionError",
      kind: "protocol_violation",
      details: { method: "session/list", path: "/nextCursor" },
    });
    expect(peer.connection.isClosed).toBe(false);
  });

  it("closes with a clear error when the agent answers a protocol version the client cannot speak", async () => {
    const peer = againstRawPeer("client");
    peer.connection.listen();
    const call = peer.connection.request("initialize", { protocolVersion: 2, info });
    await peer.settle();
    peer.send({ jsonrpc: "2.0", id: 0, result: { protocolVersion: 1, info } });
    const error = await call.catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "protocol_violation", details: { requestedVersion: 2, answeredVersion: 1 } });
    expect((error as Error).message).toMatch(/protocol version 1/);
    expect(peer.connection.isClosed).toBe(true);
    await expect(peer.connection.closed).resolves.toBe(error);
  });

  it("passes the agent's -32022 through as a RequestError", async () => {
    const { agent, client } = typedPair();
    agent.onRequest("initialize", (params) => ({
      protocolVersion: negotiateProtocolVersion(params.protocolVersion),
      info,
    }));
    agent.listen();
    client.listen();
    const error = await client.request("initialize", { protocolVersion: 1, info }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect(error).toMatchObject({ code: -32022, data: { requested: 1, supported: [2] } });
  });

  it("passes extension methods through untyped, both ways", async () => {
    const { agent, client } = typedPair();
    agent.onExtRequest("_acme/echo", (params, ctx) => ({ echoed: params, method: ctx.method }));
    const notes: unknown[] = [];
    client.onExtNotification("_acme/ping", (params) => void notes.push(params));
    agent.onUnhandledExtRequest((_params, ctx) => ({ fallback: ctx.method }));
    agent.listen();
    client.listen();
    await expect(client.requestExt("_acme/echo", { x: 1 })).resolves.toEqual({
      echoed: { x: 1 },
      method: "_acme/echo",
    });
    await expect(client.requestExt("_acme/other")).resolves.toEqual({ fallback: "_acme/other" });
    await agent.notifyExt("_acme/ping", { n: 1 });
    await expect(client.requestExt("_acme/nope" as never)).resolves.toBeDefined();
    await vi.waitFor(() => expect(notes).toEqual([{ n: 1 }]));
    await expect(client.requestExt("session/new" as never)).rejects.toThrow(TypeError);
    expect(() => agent.onExtRequest("plain" as never, () => 1)).toThrow(TypeError);
  });

  it("answers unknown non-extension methods -32601 even with an extension fallback", async () => {
    const peer = againstRawPeer("agent");
    peer.connection.onUnhandledExtRequest(() => "claimed");
    peer.connection.listen();
    peer.send({ jsonrpc: "2.0", id: 1, method: "session/load", params: {} });
    peer.send({ jsonrpc: "2.0", id: 2, method: "session/request_permission", params: {} });
    await peer.settle();
    expect(peer.received).toEqual([
      expect.objectContaining({ id: 1, error: expect.objectContaining({ code: -32601 }) }),
      expect.objectContaining({ id: 2, error: expect.objectContaining({ code: -32601 }) }),
    ]);
  });

  it("refuses at runtime methods the side does not handle or send", async () => {
    const { agent, client } = typedPair();
    expect(() => agent.onRequest("session/request_permission" as never, () => undefined as never)).toThrow(TypeError);
    expect(() => client.onNotification("session/cancel" as never, () => undefined)).toThrow(TypeError);
    await expect(agent.request("initialize" as never, {} as never)).rejects.toThrow(TypeError);
  });

  it("carries cancellation through the typed layer", async () => {
    const { agent, client } = typedPair();
    let aborted = false;
    let asked!: () => void;
    const handling = new Promise<void>((resolve) => (asked = resolve));
    client.onRequest("session/request_permission", (_params, ctx) => {
      asked();
      return new Promise((resolve) =>
        ctx.signal.addEventListener("abort", () => {
          aborted = true;
          resolve({ outcome: { outcome: "cancelled" } });
        }),
      );
    });
    agent.listen();
    client.listen();
    const controller = new AbortController();
    const call = agent.request(
      "session/request_permission",
      {
        sessionId: "s1",
        title: "Run the tests?",
        subject: { type: "tool_call", toolCall: { toolCallId: "t1" } },
        options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }],
      },
      { signal: controller.signal },
    );
    await handling;
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: "AbortError" });
    await vi.waitFor(() => expect(aborted).toBe(true));
  });

  it("defaults outgoing validation on, and off when NODE_ENV is production", () => {
    const [ta, tb] = createInMemoryTransportPair();
    vi.stubEnv("NODE_ENV", "test");
    expect(createAgentSideConnection(ta).validatesOutgoing).toBe(true);
    vi.stubEnv("NODE_ENV", "production");
    expect(createClientSideConnection(tb).validatesOutgoing).toBe(false);
    expect(createClientSideConnection(tb, { validateOutgoing: true }).validatesOutgoing).toBe(true);
  });

  it("uses the generated name for the cancel notification the core handles", () => {
    expect(METHODS[CANCEL_REQUEST_METHOD].method).toBe(CANCEL_REQUEST_METHOD);
  });
});

describe("negotiateProtocolVersion", () => {
  it("answers 2 for any request >= 2 and -32022 below", () => {
    expect(negotiateProtocolVersion(2)).toBe(2);
    expect(negotiateProtocolVersion(3)).toBe(2);
    expect(negotiateProtocolVersion(65535)).toBe(2);
    for (const requested of [1, 0, 1.5]) {
      let thrown: unknown;
      try {
        negotiateProtocolVersion(requested);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(RequestError);
      expect(thrown).toMatchObject({ code: -32022, data: { requested, supported: [2] } });
    }
  });
});
