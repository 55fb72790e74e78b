import { describe, expect, it } from "vitest";
import { Connection } from "./connection.js";
import { ConnectionError } from "./errors.js";
import { createInMemoryTransportPair } from "./in-memory-transport.js";
import type { JsonRpcMessage } from "./messages.js";
import { type JsonRpcMessageStream, streamFromTransport, transportFromStream } from "./stream-adapters.js";
import { microtasksDrained } from "./test-support/macrotask.js";

/** Two message-object streams wired to each other, the way the official SDK's tests build them. */
function streamPair(): [JsonRpcMessageStream, JsonRpcMessageStream] {
  const aToB = new TransformStream<JsonRpcMessage, JsonRpcMessage>();
  const bToA = new TransformStream<JsonRpcMessage, JsonRpcMessage>();
  return [
    { readable: bToA.readable, writable: aToB.writable },
    { readable: aToB.readable, writable: bToA.writable },
  ];
}

describe("transportFromStream", () => {
  it("carries requests, notifications and close between two connections over web streams", async () => {
    const [sa, sb] = streamPair();
    const a = new Connection(transportFromStream(sa));
    const b = new Connection(transportFromStream(sb));
    const notes: unknown[] = [];
    b.onRequest<{ n: number }>("inc", ({ n }) => n + 1);
    b.onNotification("note", (p) => void notes.push(p));
    a.listen();
    b.listen();
    await a.notify("note", { hello: "world" });
    await expect(a.request("inc", { n: 1 })).resolves.toBe(2);
    expect(notes).toEqual([{ hello: "world" }]);
    await a.close();
    await expect(b.closed).resolves.toBeUndefined();
  });

  it("ends with a ConnectionError when the readable errors", async () => {
    let fail!: (error: unknown) => void;
    const readable = new ReadableStream<JsonRpcMessage>({ start: (c) => void (fail = (e) => c.error(e)) });
    const connection = new Connection(transportFromStream({ readable, writable: new WritableStream() }));
    connection.listen();
    const pending = connection.request("m");
    fail(new Error("socket reset"));
    await expect(pending).rejects.toBeInstanceOf(ConnectionError);
    const error = await connection.closed;
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).cause).toMatchObject({ message: "socket reset" });
  });

  it("reports a failed write as write_failed and closes", async () => {
    const writable = new WritableStream<JsonRpcMessage>({ write: () => Promise.reject(new Error("EPIPE")) });
    const connection = new Connection(transportFromStream({ readable: new ReadableStream(), writable }));
    connection.listen();
    await expect(connection.request("m")).rejects.toMatchObject({ kind: "write_failed" });
    await expect(connection.closed).resolves.toMatchObject({ kind: "write_failed" });
  });
});

describe("transportFromStream lifecycle", () => {
  it("tells a sink that starts after close() about the end, exactly once", async () => {
    const [stream] = streamPair();
    const transport = transportFromStream(stream);
    await transport.close();
    const closes: unknown[] = [];
    transport.start({ message: () => undefined, closed: (error) => void closes.push(error) });
    await microtasksDrained();
    expect(closes).toEqual([undefined]);
    expect(() => transport.send("{}")).toThrow(ConnectionError);
  });
});

describe("transportFromStream backpressure", () => {
  it("returns a promise from send() while the writable is full, resolved once it drained", async () => {
    const written: JsonRpcMessage[] = [];
    let release!: () => void;
    const writable = new WritableStream<JsonRpcMessage>(
      {
        write(message) {
          written.push(message);
          return new Promise<void>((resolve) => (release = resolve));
        },
      },
      { highWaterMark: 2 },
    );
    const transport = transportFromStream({ readable: new ReadableStream(), writable });
    transport.start({ message: () => undefined, closed: () => undefined });
    const first = transport.send('{"jsonrpc":"2.0","method":"a"}');
    const second = transport.send('{"jsonrpc":"2.0","method":"b"}');
    expect(first).toBeUndefined();
    expect(second).toBeInstanceOf(Promise);
    let drained = false;
    void (second as Promise<void>).then(() => (drained = true));
    await microtasksDrained();
    expect(drained).toBe(false);
    release();
    await microtasksDrained(); // the writable took "b": its write holds the next release
    release();
    await second;
    expect(written.map((m) => (m as { method: string }).method)).toEqual(["a", "b"]);
    release();
    await transport.close();
  });
});

describe("streamFromTransport", () => {
  it("exposes one of our transports as a message-object stream pair", async () => {
    const [ours, theirs] = createInMemoryTransportPair();
    const stream = streamFromTransport(ours);
    const connection = new Connection(theirs);
    connection.onRequest("echo", (p) => p);
    connection.listen();
    const writer = stream.writable.getWriter();
    const reader = stream.readable.getReader();
    await writer.write({ jsonrpc: "2.0", id: 1, method: "echo", params: { x: 1 } });
    expect((await reader.read()).value).toEqual({ jsonrpc: "2.0", id: 1, result: { x: 1 } });
    await connection.close();
    expect((await reader.read()).done).toBe(true);
  });

  it("answers unparseable and non-object payloads itself", async () => {
    const [ours, theirs] = createInMemoryTransportPair();
    const stream = streamFromTransport(ours);
    const replies: unknown[] = [];
    theirs.start({ message: (p) => void replies.push(JSON.parse(p)), closed: () => undefined });
    void theirs.send("{nope");
    void theirs.send("17");
    void theirs.send(JSON.stringify({ jsonrpc: "2.0", method: "fine" }));
    const reader = stream.readable.getReader();
    expect((await reader.read()).value).toEqual({ jsonrpc: "2.0", method: "fine" });
    expect(replies).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } },
      { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) },
    ]);
    await theirs.close();
  });

  it("stops reading from the transport while the readable is full", async () => {
    const [ours, theirs] = createInMemoryTransportPair({ highWaterMark: 10_000 });
    const stream = streamFromTransport(ours);
    for (let i = 0; i < 500; i++) void theirs.send(JSON.stringify({ jsonrpc: "2.0", method: "n", params: { i } }));
    await theirs.settled(); // the readable filled up and paused the pair
    const reader = stream.readable.getReader();
    const seen: number[] = [];
    for (let i = 0; i < 500; i++) {
      const { value } = await reader.read();
      seen.push((value as { params: { i: number } }).params.i);
    }
    expect(seen).toEqual(Array.from({ length: 500 }, (_, i) => i));
    await theirs.close();
  });

  it("closes the transport when the consumer cancels the readable", async () => {
    const [ours, theirs] = createInMemoryTransportPair();
    const stream = streamFromTransport(ours);
    let peerClosed = false;
    theirs.start({ message: () => undefined, closed: () => void (peerClosed = true) });
    await stream.readable.cancel();
    await theirs.settled();
    expect(peerClosed).toBe(true);
    expect(() => theirs.send(JSON.stringify({ jsonrpc: "2.0", method: "late" }))).toThrow(ConnectionError);
  });

  it("round-trips through both adapters", async () => {
    const [ta, tb] = createInMemoryTransportPair();
    const a = new Connection(transportFromStream(streamFromTransport(ta)));
    const b = new Connection(tb);
    b.onRequest("twice", (p: { s: string }) => p.s + p.s);
    a.listen();
    b.listen();
    await expect(a.request("twice", { s: "ab" })).resolves.toBe("abab");
    await a.close();
    await expect(b.closed).resolves.toBeUndefined();
  });
});
