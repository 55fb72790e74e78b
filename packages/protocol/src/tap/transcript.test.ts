import { describe, expect, it } from "vitest";
import { Connection } from "../jsonrpc/connection.js";
import { createInMemoryTransportPair } from "../jsonrpc/in-memory-transport.js";
import { parseTranscript, TranscriptError, TranscriptWriter } from "./transcript.js";

describe("transcript", () => {
  it("records a tapped connection and reads it back", async () => {
    const [a, b] = createInMemoryTransportPair();
    const lines: string[] = [];
    const writer = new TranscriptWriter({ write: (l) => lines.push(l), side: "client", meta: { command: "x" } });
    const client = new Connection(a, { tap: writer.tap });
    const agent = new Connection(b);
    agent.onRequest("initialize", () => ({ protocolVersion: 2 }));
    client.listen();
    agent.listen();
    await client.request("initialize", { protocolVersion: 2 });
    await client.close();

    const transcript = parseTranscript(`${lines.join("\n")}\n`);
    expect(transcript.header).toMatchObject({ acpTranscript: 1, meta: { command: "x" } });
    expect(transcript.entries.map((e) => [e.from, e.msg])).toEqual([
      ["client", { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 2 } }],
      ["agent", { jsonrpc: "2.0", id: 0, result: { protocolVersion: 2 } }],
    ]);
    expect(transcript.entries[1]?.ms).toBeTypeOf("number");
    expect(transcript.entries[0]?.t).toBeGreaterThanOrEqual(0);
  });

  it("keeps payloads that are not JSON as raw text", () => {
    const lines: string[] = [];
    const writer = new TranscriptWriter({ write: (l) => lines.push(l) });
    writer.record("agent", { time: Date.now(), bytes: 3, payload: "{x", message: undefined });
    expect(parseTranscript(lines.join("\n")).entries[0]).toMatchObject({ from: "agent", raw: "{x" });
  });

  it.each([
    ["", 1, "empty"],
    ['{"hello":1}', 1, "header"],
    ['{"acpTranscript":9,"startedAt":"x"}', 1, "newer"],
    ['{"acpTranscript":1,"startedAt":"x"}\n{"t":1,"from":"editor","msg":{}}', 2, '"from"'],
    ['{"acpTranscript":1,"startedAt":"x"}\n\n{"t":1,"from":"agent"', 3, "not JSON"],
    ['{"acpTranscript":1,"startedAt":"x"}\n{"t":"1","from":"agent","msg":{}}', 2, '"t"'],
  ])("rejects %j at line %i with a clear error", (text, line, words) => {
    let error: unknown;
    try {
      parseTranscript(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TranscriptError);
    expect((error as TranscriptError).line).toBe(line);
    expect((error as TranscriptError).message).toContain(words);
  });

  it("reads a hand-written transcript: a missing byte count is the payload's UTF-8 length, a non-object meta is none", () => {
    const text = [
      JSON.stringify({ acpTranscript: 1, startedAt: "2026-01-01T00:00:00Z", meta: "x", extra: 1 }),
      JSON.stringify({ t: 0, from: "agent", msg: { jsonrpc: "2.0", method: "é" } }),
      JSON.stringify({ t: 1, from: "client", raw: "héllo", ms: "soon" }),
    ].join("\n");
    const { header, entries } = parseTranscript(text);
    expect(header).toEqual({ acpTranscript: 1, startedAt: "2026-01-01T00:00:00Z", extra: 1 });
    expect(entries[0]?.bytes).toBe(new TextEncoder().encode('{"jsonrpc":"2.0","method":"é"}').length);
    expect(entries[1]).toEqual({ t: 1, from: "client", raw: "héllo", bytes: 6 });
  });
});
