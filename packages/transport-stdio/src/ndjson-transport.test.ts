import { PassThrough } from "node:stream";
import { Connection, ConnectionError, type TransportSink } from "@acp-kit/protocol/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import { type NdjsonTransport, ndjsonTransport } from "./ndjson-transport.js";

/** Two transports wired back to back through in-process byte streams. */
function pipePair() {
  const aToB = new PassThrough();
  const bToA = new PassThrough();
  const a = ndjsonTransport(bToA, aToB);
  const b = ndjsonTransport(aToB, bToA);
  return { a, b, aToB, bToA };
}

function recordingSink() {
  const messages: string[] = [];
  let resolveClosed!: (error: Error | undefined) => void;
  const closed = new Promise<Error | undefined>((resolve) => (resolveClosed = resolve));
  const sink: TransportSink = {
    message: (payload) => {
      messages.push(payload);
    },
    closed: (error) => resolveClosed(error),
  };
  return { sink, messages, closed };
}

/** Collects the lines written to a stream. */
function collectLines(stream: PassThrough): string[] {
  const lines: string[] = [];
  let partial = "";
  stream.setEncoding("utf8");
  stream.on("data", (text: string) => {
    const parts = (partial + text).split("\n");
    partial = parts.pop() ?? "";
    lines.push(...parts);
  });
  return lines;
}

const open: NdjsonTransport[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

describe("ndjsonTransport", () => {
  it("delivers payloads in order, as sent", async () => {
    const { a, b } = pipePair();
    open.push(a, b);
    const received = recordingSink();
    b.start(received.sink);
    a.start(recordingSink().sink);
    const payloads = Array.from({ length: 100 }, (_, i) =>
      JSON.stringify({ jsonrpc: "2.0", method: "n", params: { i, s: "ü🙂" } }),
    );
    for (const p of payloads) await a.send(p);
    await a.close();
    expect(await received.closed).toBeUndefined();
    expect(received.messages).toEqual(payloads);
  });

  it("delivers a final line without terminator, then closes cleanly at end of input", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const transport = ndjsonTransport(input, output);
    const received = recordingSink();
    transport.start(received.sink);
    input.write('{"a":1}\n{"b":');
    input.end("2}");
    expect(await received.closed).toBeUndefined();
    expect(received.messages).toEqual(['{"a":1}', '{"b":2}']);
    expect(transport.isClosed).toBe(true);
    expect(() => transport.send("{}")).toThrow(ConnectionError);
    expect(output.writableEnded).toBe(true);
  });

  it("pauses reading while the sink's promise is pending (inbound backpressure)", async () => {
    const input = new PassThrough();
    const transport = ndjsonTransport(input, new PassThrough());
    open.push(transport);
    const seen: string[] = [];
    let release!: () => void;
    transport.start({
      message: (payload) => {
        seen.push(payload);
        if (payload === '"block"') return new Promise<void>((resolve) => (release = resolve));
        return undefined;
      },
      closed: () => {},
    });
    input.write('"one"\n"block"\n"two"\n"three"\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['"one"', '"block"']);
    expect(input.isPaused()).toBe(true);
    expect(transport.inboundBufferedBytes).toBeGreaterThan(0);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['"one"', '"block"', '"two"', '"three"']);
    expect(input.isPaused()).toBe(false);
  });

  it("closes with payload_too_large when an inbound line passes the maximum, and frees its buffer", async () => {
    const input = new PassThrough();
    const transport = ndjsonTransport(input, new PassThrough(), { maxLineBytes: 1024 });
    const received = recordingSink();
    transport.start(received.sink);
    input.write('{"ok":true}\n');
    input.write("x".repeat(800));
    input.write("x".repeat(800));
    const error = await received.closed;
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).kind).toBe("payload_too_large");
    expect(received.messages).toEqual(['{"ok":true}']);
    expect(transport.inboundBufferedBytes).toBe(0);
    // Nothing more is delivered afterwards.
    input.write('{"late":true}\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(received.messages).toEqual(['{"ok":true}']);
  });

  it("calls closed exactly once, also when closed before start", async () => {
    const transport = ndjsonTransport(new PassThrough(), new PassThrough());
    await transport.close();
    await transport.close();
    let calls = 0;
    await new Promise<void>((resolve) => {
      transport.start({
        message: () => {},
        closed: (error) => {
          calls++;
          expect(error).toBeUndefined();
          resolve();
        },
      });
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toBe(1);
  });

  it("reports a failing output as write_failed", async () => {
    const output = new PassThrough();
    const transport = ndjsonTransport(new PassThrough(), output);
    const received = recordingSink();
    transport.start(received.sink);
    output.destroy(new Error("EPIPE: broken pipe"));
    const error = await received.closed;
    expect((error as ConnectionError).kind).toBe("write_failed");
    expect(() => transport.send("{}")).toThrow(ConnectionError);
  });

  describe("with a Connection on each end", () => {
    it("a garbage line is answered with -32700 and the stream goes on", async () => {
      const toAgent = new PassThrough();
      const fromAgent = new PassThrough();
      const agent = new Connection(ndjsonTransport(toAgent, fromAgent));
      agent.onRequest("echo", (params) => params);
      agent.listen();
      const lines = collectLines(fromAgent);
      toAgent.write('this is not json\n{"jsonrpc":"2.0","id":1,"method":"echo","params":{"text":"h\u00e9llo"}}\n');
      await expect.poll(() => lines.length).toBe(2);
      expect(JSON.parse(lines[0] as string)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
      expect(JSON.parse(lines[1] as string)).toEqual({ jsonrpc: "2.0", id: 1, result: { text: "héllo" } });
      await agent.close();
    });

    it("carries requests and responses both ways", async () => {
      const { a, b } = pipePair();
      const client = new Connection(a);
      const agent = new Connection(b);
      agent.onRequest("echo", (params) => params);
      agent.listen();
      client.listen();
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => client.request("echo", { i })));
      expect(results).toEqual(Array.from({ length: 50 }, (_, i) => ({ i })));
      await client.close();
      expect(await agent.closed).toBeUndefined();
    });

    it("rejects pending requests when the peer's stream ends", async () => {
      const { a, b } = pipePair();
      const client = new Connection(a);
      const agent = new Connection(b);
      let arrived!: () => void;
      const handling = new Promise<void>((resolve) => (arrived = resolve));
      agent.onRequest("never", () => {
        arrived();
        return new Promise(() => {});
      });
      agent.listen();
      client.listen();
      const pending = client.request("never");
      await handling;
      await b.close();
      await expect(pending).rejects.toBeInstanceOf(ConnectionError);
      await agent.close();
    });
  });
});
