import { describe, expect, it } from "vitest";
import { ErrorCodes, sessionNotFoundError } from "../acp/errors.js";
import { Connection } from "./connection.js";
import { ConnectionError, RequestError } from "./errors.js";
import { createInMemoryTransportPair } from "./in-memory-transport.js";
import { NOTIFICATION_SENT } from "./outbound.js";
import { createConnectionPair, createRawPeer } from "./test-support/raw-peer.js";

describe("Connection: requests and responses", () => {
  it("round-trips a request between two connections", async () => {
    const { a, b } = createConnectionPair();
    b.onRequest<{ x: number }, { y: number }>("double", (params) => ({ y: params.x * 2 }));
    a.listen();
    b.listen();
    await expect(a.request("double", { x: 21 })).resolves.toEqual({ y: 42 });
    await a.close();
  });

  it("answers an undefined result with result: null", async () => {
    const peer = createRawPeer({}, (c) => c.onRequest("noop", () => undefined));
    peer.send({ jsonrpc: "2.0", id: 7, method: "noop" });
    expect(await peer.waitFor(1)).toEqual([{ jsonrpc: "2.0", id: 7, result: null }]);
    await peer.connection.close();
  });

  it("uses id 0 for its first request and resolves with the response to id 0", async () => {
    const peer = createRawPeer();
    const result = peer.connection.request("ping");
    expect(await peer.waitFor(1)).toEqual([{ jsonrpc: "2.0", id: 0, method: "ping" }]);
    peer.send({ jsonrpc: "2.0", id: 0, result: "pong" });
    await expect(result).resolves.toBe("pong");
    await peer.connection.close();
  });

  it("never reuses an id while requests are pending", async () => {
    const peer = createRawPeer();
    const calls = Array.from({ length: 5 }, (_, i) => peer.connection.request("m", { i }));
    const sent = (await peer.waitFor(5)) as { id: number }[];
    expect(new Set(sent.map((m) => m.id)).size).toBe(5);
    for (const m of sent) peer.send({ jsonrpc: "2.0", id: m.id, result: m.id });
    expect(await Promise.all(calls)).toEqual(sent.map((m) => m.id));
    await peer.connection.close();
  });

  it("echoes string, integer and zero ids exactly as received", async () => {
    const peer = createRawPeer({}, (c) => c.onRequest("echo", (_p, ctx) => ctx.id));
    peer.send({ jsonrpc: "2.0", id: "abc", method: "echo" });
    peer.send({ jsonrpc: "2.0", id: 0, method: "echo" });
    peer.send({ jsonrpc: "2.0", id: "0", method: "echo" });
    peer.send({ jsonrpc: "2.0", id: -5, method: "echo" });
    expect(await peer.waitFor(4)).toEqual([
      { jsonrpc: "2.0", id: "abc", result: "abc" },
      { jsonrpc: "2.0", id: 0, result: 0 },
      { jsonrpc: "2.0", id: "0", result: "0" },
      { jsonrpc: "2.0", id: -5, result: -5 },
    ]);
    await peer.connection.close();
  });

  it("does not resolve a numeric id with a response carrying the same id as a string", async () => {
    const peer = createRawPeer();
    let settled = false;
    const call = peer.connection.request("m").finally(() => (settled = true));
    await peer.waitFor(1);
    peer.send({ jsonrpc: "2.0", id: "0", result: "wrong" });
    await peer.settle();
    expect(settled).toBe(false);
    expect(peer.logs.some((l) => l.level === "warn" && l.message.includes("unknown request id"))).toBe(true);
    peer.send({ jsonrpc: "2.0", id: 0, result: "right" });
    await expect(call).resolves.toBe("right");
    await peer.connection.close();
  });

  it("rejects with the peer's RequestError, code, message and data intact", async () => {
    const { a, b } = createConnectionPair();
    b.onRequest("fail", () => {
      throw sessionNotFoundError("s1");
    });
    a.listen();
    b.listen();
    const error = await a.request("fail").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect(error).toMatchObject({ code: ErrorCodes.ResourceNotFound, data: { sessionId: "s1" } });
    await a.close();
  });

  it("routes unknown requests to the fallback handler, with the method in the context", async () => {
    const peer = createRawPeer({}, (c) => c.onUnhandledRequest((params, ctx) => ({ method: ctx.method, params })));
    peer.send({ jsonrpc: "2.0", id: 1, method: "_vendor/thing", params: { a: 1 } });
    expect(await peer.waitFor(1)).toEqual([
      { jsonrpc: "2.0", id: 1, result: { method: "_vendor/thing", params: { a: 1 } } },
    ]);
    await peer.connection.close();
  });

  it("unregisters a handler on dispose and refuses a second handler for the same method", async () => {
    const peer = createRawPeer();
    const registration = peer.connection.onRequest("m", () => 1);
    expect(() => peer.connection.onRequest("m", () => 2)).toThrow(/already registered/);
    registration.dispose();
    registration.dispose();
    peer.send({ jsonrpc: "2.0", id: 1, method: "m" });
    expect(await peer.waitFor(1)).toEqual([
      {
        jsonrpc: "2.0",
        id: 1,
        error: { code: ErrorCodes.MethodNotFound, message: "Method not found: m", data: { method: "m" } },
      },
    ]);
    await peer.connection.close();
  });

  it("refuses listen() twice", async () => {
    const peer = createRawPeer();
    expect(() => peer.connection.listen()).toThrow(/already/);
    await peer.connection.close();
  });
});

describe("Connection: inbound error mapping", () => {
  const cases: [string, string, unknown][] = [
    ["malformed JSON", "{not json", { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }],
    ["a number", "42", { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) }],
    ["a string", '"hello"', { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) }],
    ["null", "null", { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) }],
    ["an empty object", "{}", { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) }],
    [
      "a wrong jsonrpc version",
      '{"jsonrpc":"1.0","id":1,"method":"m"}',
      { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) },
    ],
    [
      "a null id",
      '{"jsonrpc":"2.0","id":null,"method":"m"}',
      { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) },
    ],
    [
      "an object id",
      '{"jsonrpc":"2.0","id":{"a":1},"method":"m"}',
      { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) },
    ],
    [
      "a boolean id",
      '{"jsonrpc":"2.0","id":true,"method":"m"}',
      { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) },
    ],
    [
      "a non-string method",
      '{"jsonrpc":"2.0","method":5}',
      { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) },
    ],
    [
      "primitive params",
      '{"jsonrpc":"2.0","id":3,"method":"m","params":7}',
      { jsonrpc: "2.0", id: 3, error: expect.objectContaining({ code: -32600 }) },
    ],
    [
      "an unknown method",
      '{"jsonrpc":"2.0","id":4,"method":"nope"}',
      { jsonrpc: "2.0", id: 4, error: { code: -32601, message: "Method not found: nope", data: { method: "nope" } } },
    ],
  ];
  for (const [name, payload, expected] of cases) {
    it(`answers ${name}`, async () => {
      const peer = createRawPeer();
      peer.send(payload);
      expect(await peer.waitFor(1)).toEqual([expected]);
      await peer.settle();
      expect(peer.received).toHaveLength(1);
      await peer.connection.close();
    });
  }

  it("keeps working after bad input", async () => {
    const peer = createRawPeer({}, (c) => c.onRequest("ok", () => "fine"));
    peer.send("{oops");
    peer.send("[]");
    peer.send({ jsonrpc: "2.0", id: 1, method: "ok" });
    const received = await peer.waitFor(3);
    expect(received[2]).toEqual({ jsonrpc: "2.0", id: 1, result: "fine" });
    await peer.connection.close();
  });

  it("ignores an unknown notification and logs it at debug", async () => {
    const peer = createRawPeer();
    peer.send({ jsonrpc: "2.0", method: "nobody/listens", params: {} });
    await peer.settle();
    expect(peer.received).toEqual([]);
    expect(peer.logs).toContainEqual({
      level: "debug",
      message: "Ignored a notification nobody handles",
      data: { method: "nobody/listens" },
    });
    await peer.connection.close();
  });

  it("sends a RequestError thrown by a handler as is, sync or async", async () => {
    const peer = createRawPeer({}, (c) => {
      c.onRequest("sync", () => {
        throw new RequestError(-32042, "custom", { why: "because" });
      });
      c.onRequest("async", async () => {
        throw RequestError.invalidParams("bad", { path: "/x" });
      });
    });
    peer.send({ jsonrpc: "2.0", id: 1, method: "sync" });
    peer.send({ jsonrpc: "2.0", id: 2, method: "async" });
    const received = await peer.waitFor(2);
    expect(received).toContainEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32042, message: "custom", data: { why: "because" } },
    });
    expect(received).toContainEqual({
      jsonrpc: "2.0",
      id: 2,
      error: { code: -32602, message: "bad", data: { path: "/x" } },
    });
    await peer.connection.close();
  });

  it("maps any other failure to -32603 without leaking its message or stack, and logs it", async () => {
    const peer = createRawPeer({}, (c) => {
      c.onRequest("boom", () => {
        throw new Error("secret database password in /home/me");
      });
      c.onRequest("reject", () => Promise.reject(new TypeError("secret")));
      c.onRequest("bigint", () => ({ n: 1n }));
    });
    peer.send({ jsonrpc: "2.0", id: 1, method: "boom" });
    peer.send({ jsonrpc: "2.0", id: 2, method: "reject" });
    peer.send({ jsonrpc: "2.0", id: 3, method: "bigint" });
    const received = await peer.waitFor(3);
    for (const id of [1, 2, 3]) {
      expect(received).toContainEqual({ jsonrpc: "2.0", id, error: { code: -32603, message: "Internal error" } });
    }
    expect(JSON.stringify(received)).not.toContain("secret");
    expect(peer.logs.filter((l) => l.level === "error")).toHaveLength(3);
    await peer.connection.close();
  });

  it("ignores responses for unknown ids and malformed responses, and logs them", async () => {
    const peer = createRawPeer();
    peer.send({ jsonrpc: "2.0", id: 99, result: 1 });
    peer.send({ jsonrpc: "2.0", id: 98, error: "not an object" });
    peer.send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
    await peer.settle();
    expect(peer.received).toEqual([]);
    expect(peer.logs.filter((l) => l.level === "warn")).toHaveLength(3);
    await peer.connection.close();
  });

  it("rejects a pending request whose response is malformed with a protocol violation", async () => {
    const peer = createRawPeer();
    const call = peer.connection.request("m");
    await peer.waitFor(1);
    peer.send({ jsonrpc: "2.0", id: 0, result: 1, error: { code: 1, message: "both" } });
    await expect(call).rejects.toMatchObject({ name: "ConnectionError", kind: "protocol_violation" });
    await peer.connection.close();
  });

  it("answers a request that reuses an id still in flight with -32600 and keeps the first", async () => {
    let release!: (value: string) => void;
    const peer = createRawPeer({}, (c) =>
      c.onRequest("slow", () => new Promise<string>((resolve) => (release = resolve))),
    );
    peer.send({ jsonrpc: "2.0", id: 5, method: "slow" });
    peer.send({ jsonrpc: "2.0", id: 5, method: "slow" });
    expect((await peer.waitFor(1))[0]).toMatchObject({ id: 5, error: { code: -32600 } });
    release("first");
    expect((await peer.waitFor(2))[1]).toEqual({ jsonrpc: "2.0", id: 5, result: "first" });
    await peer.connection.close();
  });

  it("sends what encodeNotification returns, and JSON.stringify's payload where it returns undefined", async () => {
    const seen: [string, unknown][] = [];
    const peer = createRawPeer({
      encodeNotification: (method, params) => {
        seen.push([method, params]);
        return method === "fast" ? `{"jsonrpc":"2.0","method":"fast","params":{"via":"encoder"}}` : undefined;
      },
    });
    await peer.connection.notify("fast", { via: "stringify" });
    await peer.connection.notify("slow", { via: "stringify" });
    expect(await peer.waitFor(2)).toEqual([
      { jsonrpc: "2.0", method: "fast", params: { via: "encoder" } },
      { jsonrpc: "2.0", method: "slow", params: { via: "stringify" } },
    ]);
    expect(seen).toEqual([
      ["fast", { via: "stringify" }],
      ["slow", { via: "stringify" }],
    ]);
    await peer.connection.close();
  });

  it("returns NOTIFICATION_SENT itself for a notification the transport took at once, a rejection otherwise", async () => {
    const peer = createRawPeer();
    const sent = peer.connection.notify("m", { n: 1 });
    expect(sent).toBe(NOTIFICATION_SENT);
    await expect(sent).resolves.toBeUndefined();
    await peer.connection.close();
    const refused = peer.connection.notify("m");
    expect(refused).not.toBe(NOTIFICATION_SENT);
    await expect(refused).rejects.toMatchObject({ kind: "closed" });
  });

  it("refuses to send unserializable params with a local invalid_outgoing error", async () => {
    const peer = createRawPeer();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(peer.connection.request("m", cyclic)).rejects.toMatchObject({ kind: "invalid_outgoing" });
    await expect(peer.connection.notify("m", { n: 1n })).rejects.toMatchObject({ kind: "invalid_outgoing" });
    await peer.settle();
    expect(peer.received).toEqual([]);
    await peer.connection.close();
  });
});

describe("Connection: ordering and concurrency", () => {
  it("invokes handlers synchronously in arrival order, a slow handler reordering nothing", async () => {
    const events: string[] = [];
    let releaseSlow!: () => void;
    const slow = new Promise<void>((resolve) => (releaseSlow = resolve));
    const peer = createRawPeer({}, (c) => {
      c.onNotification<{ n: number }>("note", async ({ n }) => {
        events.push(`start ${n}`);
        if (n === 1) await slow;
        events.push(`end ${n}`);
      });
      c.onRequest<{ n: number }>("req", ({ n }) => {
        events.push(`request ${n}`);
        return n;
      });
    });
    peer.send({ jsonrpc: "2.0", method: "note", params: { n: 1 } });
    peer.send({ jsonrpc: "2.0", id: 1, method: "req", params: { n: 2 } });
    peer.send({ jsonrpc: "2.0", method: "note", params: { n: 3 } });
    peer.send({ jsonrpc: "2.0", method: "note", params: { n: 4 } });
    await peer.settle(); // every later message dispatched while the slow handler still waits
    releaseSlow();
    await peer.waitFor(1);
    await peer.settle();
    expect(events.filter((e) => !e.startsWith("end"))).toEqual(["start 1", "request 2", "start 3", "start 4"]);
    expect(events.indexOf("end 3")).toBeLessThan(events.indexOf("end 1"));
    await peer.connection.close();
  });

  it("pauses reading when too many handlers are in flight, and resumes when they settle", async () => {
    const releases: (() => void)[] = [];
    let started = 0;
    const peer = createRawPeer({ maxPendingHandlers: 2 }, (c) =>
      c.onNotification("work", () => {
        started++;
        return new Promise<void>((resolve) => releases.push(resolve));
      }),
    );
    for (let i = 0; i < 5; i++) peer.send({ jsonrpc: "2.0", method: "work" });
    await peer.settle();
    expect(started).toBe(2);
    releases.shift()!();
    await peer.settle();
    expect(started).toBe(3);
    for (let i = 0; i < 10 && releases.length > 0; i++) {
      releases.shift()!();
      await peer.settle();
    }
    expect(started).toBe(5);
    await peer.connection.close();
  });

  it("pauses reading while its responses pile up behind a peer that does not read", async () => {
    const [ours, theirs] = createInMemoryTransportPair({ highWaterMark: 1 });
    let handled = 0;
    const connection = new Connection(ours, { maxPendingHandlers: 2 });
    connection.onRequest("m", () => ++handled);
    connection.listen();
    for (let i = 0; i < 10; i++) void theirs.send(JSON.stringify({ jsonrpc: "2.0", id: i, method: "m" }));
    await ours.settled();
    expect(handled).toBe(2);
    const replies: string[] = [];
    theirs.start({ message: (p) => void replies.push(p), closed: () => undefined });
    await ours.settled();
    expect(handled).toBe(10);
    expect(replies).toHaveLength(10);
    await connection.close();
  });

  it("keeps reading while it waits for a response, so handlers awaiting the peer cannot deadlock", async () => {
    const peer = createRawPeer({ maxPendingHandlers: 1 }, (c) =>
      c.onRequest("ask-back", (_params, ctx) => ctx.connection.request("question")),
    );
    peer.send({ jsonrpc: "2.0", id: "outer", method: "ask-back" });
    const [question] = (await peer.waitFor(1)) as { id: number }[];
    expect(question).toMatchObject({ method: "question" });
    peer.send({ jsonrpc: "2.0", id: question!.id, result: "answer" });
    expect((await peer.waitFor(2))[1]).toEqual({ jsonrpc: "2.0", id: "outer", result: "answer" });
    await peer.connection.close();
  });
});

describe("Connection: close", () => {
  it("rejects pending requests, aborts running handlers, resolves closed once", async () => {
    let handlerSignal: AbortSignal | undefined;
    const peer = createRawPeer({}, (c) =>
      c.onRequest("hang", (_p, ctx) => {
        handlerSignal = ctx.signal;
        return new Promise(() => undefined);
      }),
    );
    const pending = [peer.connection.request("a"), peer.connection.request("b")];
    peer.send({ jsonrpc: "2.0", id: 1, method: "hang" });
    await peer.waitFor(2);
    await peer.settle();
    await peer.connection.close();
    for (const p of pending) await expect(p).rejects.toBeInstanceOf(ConnectionError);
    await expect(pending[0]).rejects.toMatchObject({ kind: "closed" });
    expect(handlerSignal?.aborted).toBe(true);
    expect(peer.connection.signal.aborted).toBe(true);
    await expect(peer.connection.closed).resolves.toBeUndefined();
    await expect(peer.peerClosed).resolves.toBeUndefined();
    await peer.connection.close();
  });

  it("closes with a given error: pending requests reject with it, closed resolves to it", async () => {
    const peer = createRawPeer();
    const call = peer.connection.request("m");
    await peer.waitFor(1);
    const reason = new ConnectionError("protocol_violation", "peer spoke nonsense");
    await peer.connection.close(reason);
    await expect(call).rejects.toBe(reason);
    await expect(peer.connection.closed).resolves.toBe(reason);
    await expect(peer.connection.notify("m")).rejects.toBe(reason);
    await expect(peer.peerClosed).resolves.toBeUndefined();
  });

  it("rejects sends after close with ConnectionError", async () => {
    const peer = createRawPeer();
    await peer.connection.close();
    await expect(peer.connection.request("m")).rejects.toMatchObject({ name: "ConnectionError", kind: "closed" });
    await expect(peer.connection.notify("m")).rejects.toMatchObject({ name: "ConnectionError", kind: "closed" });
  });

  it("closes when the peer closes, rejecting what was pending", async () => {
    const peer = createRawPeer();
    const call = peer.connection.request("m");
    await peer.waitFor(1);
    await peer.transport.close();
    await expect(call).rejects.toMatchObject({ kind: "closed" });
    await expect(peer.connection.closed).resolves.toBeUndefined();
  });

  it("carries the transport's error and details when the transport fails", async () => {
    const peer = createRawPeer();
    const call = peer.connection.request("m");
    await peer.waitFor(1);
    const failure = ConnectionError.closed("agent exited", { exitCode: 3, stderrTail: ["panic"] });
    peer.transport.fail(failure);
    await expect(call).rejects.toBe(failure);
    await expect(peer.connection.closed).resolves.toBe(failure);
    await expect(peer.connection.request("again")).rejects.toBe(failure);
  });

  it("answers nothing for handlers that settle after close", async () => {
    let release!: () => void;
    const [ours, theirs] = createInMemoryTransportPair();
    const connection = new Connection(ours);
    connection.onRequest("slow", () => new Promise<string>((resolve) => (release = () => resolve("late"))));
    const received: string[] = [];
    theirs.start({ message: (p) => void received.push(p), closed: () => undefined });
    connection.listen();
    void theirs.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "slow" }));
    await theirs.settled();
    await connection.close();
    release();
    await theirs.settled();
    expect(received).toEqual([]);
  });
});
