import { ConnectionError } from "@acp-kit/protocol/jsonrpc";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NdjsonLineDecoder } from "./line-decoder.js";

const utf8 = (text: string): Buffer => Buffer.from(text, "utf8");

function drain(decoder: NdjsonLineDecoder): string[] {
  const lines: string[] = [];
  for (let line = decoder.next(); line !== undefined; line = decoder.next()) lines.push(line);
  return lines;
}

function decodeChunks(chunks: Uint8Array[], maxLineBytes?: number): string[] {
  const decoder = new NdjsonLineDecoder(maxLineBytes);
  const lines: string[] = [];
  for (const chunk of chunks) {
    decoder.push(chunk);
    lines.push(...drain(decoder));
  }
  decoder.end();
  lines.push(...drain(decoder));
  return lines;
}

describe("NdjsonLineDecoder", () => {
  it("splits LF-terminated lines", () => {
    expect(decodeChunks([utf8('{"a":1}\n{"b":2}\n')])).toEqual(['{"a":1}', '{"b":2}']);
  });

  it("accepts CRLF, also when the CR and LF arrive in different chunks", () => {
    expect(decodeChunks([utf8('{"a":1}\r\n{"b":2}\r'), utf8("\n")])).toEqual(['{"a":1}', '{"b":2}']);
  });

  it("skips empty and whitespace-only lines", () => {
    expect(decodeChunks([utf8('\n\r\n  \t\n{"a":1}\n\n \r\n{"b":2}\n')])).toEqual(['{"a":1}', '{"b":2}']);
  });

  it("flushes a final line without a terminator at end of input", () => {
    expect(decodeChunks([utf8('{"a":1}\n{"b"'), utf8(":2}")])).toEqual(['{"a":1}', '{"b":2}']);
    expect(decodeChunks([utf8('{"a":1}\r')])).toEqual(['{"a":1}']);
  });

  it("returns nothing for the unterminated tail until end()", () => {
    const decoder = new NdjsonLineDecoder();
    decoder.push(utf8('{"a":1}\n{"b":'));
    expect(drain(decoder)).toEqual(['{"a":1}']);
    expect(decoder.bufferedBytes).toBe(5);
    decoder.push(utf8("2}"));
    expect(drain(decoder)).toEqual([]);
    decoder.end();
    expect(drain(decoder)).toEqual(['{"b":2}']);
    expect(decoder.bufferedBytes).toBe(0);
  });

  it("hands out a chunk's lines one at a time, counting what is still buffered in bytes", () => {
    const decoder = new NdjsonLineDecoder();
    decoder.push(utf8('{"a":1}\n'));
    expect(decoder.next()).toBe('{"a":1}');
    decoder.push(utf8('{"b":"é"}\r\n{"c":3}\n{"d"'));
    expect(decoder.next()).toBe('{"b":"é"}');
    expect(decoder.bufferedBytes).toBe(utf8('{"c":3}\n{"d"').byteLength);
    expect(decoder.next()).toBe('{"c":3}');
    expect(decoder.next()).toBeUndefined();
    expect(decoder.bufferedBytes).toBe(4);
  });

  it("counts each line with invalid UTF-8 once, also inside a chunk of many lines", () => {
    const decoder = new NdjsonLineDecoder();
    decoder.push(utf8("{}\n"));
    drain(decoder);
    const bad = Buffer.concat([utf8('{"a":"'), Buffer.from([0xff, 0xfe]), utf8('"}\n')]);
    decoder.push(Buffer.concat([utf8('{"x":1}\n'), bad, utf8('{"y":2}\n'), bad]));
    expect(drain(decoder)).toEqual(['{"x":1}', '{"a":"\uFFFD\uFFFD"}', '{"y":2}', '{"a":"\uFFFD\uFFFD"}']);
    expect(decoder.invalidUtf8Lines).toBe(2);
  });

  it("passes a non-JSON line through unchanged", () => {
    expect(decodeChunks([utf8("not json\n{}\n")])).toEqual(["not json", "{}"]);
  });

  it("drops a UTF-8 byte order mark at the start of the stream only", () => {
    expect(decodeChunks([utf8('\uFEFF{"a":1}\n\uFEFF{"b":2}\n')])).toEqual(['{"a":1}', '\uFEFF{"b":2}']);
  });

  it("reassembles a multi-byte character split at every byte offset", () => {
    const line = JSON.stringify({ text: "héllo €uro 𝄞 日本語 🙂" });
    const bytes = utf8(`${line}\n${line}\n`);
    for (let cut = 0; cut <= bytes.byteLength; cut++) {
      expect(decodeChunks([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual([line, line]);
    }
    // And one byte at a time.
    const single = [...bytes].map((b) => Uint8Array.of(b));
    expect(decodeChunks(single)).toEqual([line, line]);
  });

  it("accepts plain Uint8Array chunks, not only Buffers", () => {
    const bytes = new TextEncoder().encode('{"x":"ü"}\n');
    expect(decodeChunks([bytes.subarray(0, 7), bytes.subarray(7)])).toEqual(['{"x":"ü"}']);
  });

  describe("maximum line size", () => {
    it("accepts a line of exactly the maximum, CR excluded", () => {
      expect(decodeChunks([utf8("12345678\r\n")], 8)).toEqual(["12345678"]);
      expect(decodeChunks([utf8("1234"), utf8("5678\r"), utf8("\n")], 8)).toEqual(["12345678"]);
    });

    it("throws payload_too_large for a complete line past the maximum and frees the buffer", () => {
      const decoder = new NdjsonLineDecoder(8);
      decoder.push(utf8("123456789\n{}\n"));
      let error: unknown;
      try {
        decoder.next();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as ConnectionError).kind).toBe("payload_too_large");
      expect((error as ConnectionError).details.maxLineBytes).toBe(8);
      expect(decoder.bufferedBytes).toBe(0);
    });

    it("fails as soon as an unterminated line grows past the maximum, without waiting for its end", () => {
      const decoder = new NdjsonLineDecoder(1024);
      decoder.push(Buffer.alloc(600, 0x61));
      expect(decoder.next()).toBeUndefined();
      decoder.push(Buffer.alloc(600, 0x61));
      expect(() => decoder.next()).toThrow(/exceeds the maximum of 1024 bytes/);
      expect(decoder.bufferedBytes).toBe(0);
    });

    it("counts bytes, not characters", () => {
      // 3 characters, 9 bytes.
      expect(() => decodeChunks([utf8("日本語\n")], 8)).toThrow(ConnectionError);
      expect(decodeChunks([utf8("日本語\n")], 9)).toEqual(["日本語"]);
    });

    it("rejects a nonsensical maximum", () => {
      expect(() => new NdjsonLineDecoder(0)).toThrow(RangeError);
      expect(() => new NdjsonLineDecoder(1.5)).toThrow(RangeError);
    });
  });

  it("property: any sequence of messages survives any chunking", () => {
    const message = fc.jsonValue().map((value) => JSON.stringify({ jsonrpc: "2.0", method: "m", params: value }));
    fc.assert(
      fc.property(
        fc.array(message, { maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.boolean(),
        fc.boolean(),
        (messages, cuts, crlf, finalTerminator) => {
          const text = messages
            .map((m, i) => (i < messages.length - 1 || finalTerminator ? m + (crlf ? "\r\n" : "\n") : m))
            .join("");
          const bytes = utf8(text);
          const points = [...new Set(cuts.map((c) => (bytes.byteLength === 0 ? 0 : c % bytes.byteLength)))].sort(
            (a, b) => a - b,
          );
          const chunks: Buffer[] = [];
          let previous = 0;
          for (const point of points) {
            chunks.push(bytes.subarray(previous, point));
            previous = point;
          }
          chunks.push(bytes.subarray(previous));
          const lines = decodeChunks(chunks);
          expect(lines).toEqual(messages);
          expect(lines.map((line) => JSON.parse(line))).toEqual(messages.map((m) => JSON.parse(m)));
        },
      ),
      { numRuns: 300 },
    );
  });
});
