// A text frame written straight to the socket is byte for byte the frame `ws` writes for the
// same payload on the server side (unmasked, final, no extension), for every payload length
// step of the header and any text (non-ASCII, lone surrogates included).
import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type FrameSink, writeTextFrame } from "./text-frame.js";

interface FrameOptions {
  fin: boolean;
  opcode: number;
  mask: boolean;
  readOnly: boolean;
  rsv1: boolean;
}
/** `ws`'s frame builder (its sender's static `frame`; not in its type declarations). */
const { Sender } = createRequire(import.meta.url)("ws") as {
  Sender: { frame(data: Buffer, options: FrameOptions): (Buffer | string)[] };
};

/** What `ws`'s sender writes for `payload` as a server (its frame list, joined). */
function wsFrame(payload: string): Buffer {
  const parts = Sender.frame(Buffer.from(payload), { fin: true, opcode: 1, mask: false, readOnly: false, rsv1: false });
  return Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part) : part)));
}

/** The bytes `writeTextFrame` hands to the socket, and how many writes it took. */
function written(payload: string): { bytes: Buffer; writes: number; callbacks: number } {
  const chunks: Buffer[] = [];
  let callbacks = 0;
  const sink: FrameSink = {
    write(data: string | Uint8Array, encodingOrCallback?: unknown, callback?: unknown): boolean {
      chunks.push(typeof data === "string" ? Buffer.from(data, encodingOrCallback as "latin1") : Buffer.from(data));
      const done = typeof encodingOrCallback === "function" ? encodingOrCallback : callback;
      if (typeof done === "function") {
        callbacks++;
        done();
      }
      return true;
    },
  };
  writeTextFrame(sink, payload, () => {});
  return { bytes: Buffer.concat(chunks), writes: chunks.length, callbacks };
}

describe("writeTextFrame", () => {
  it.each([0, 1, 125, 126, 127, 65_535, 65_536, 70_000])("frames %i ASCII bytes as ws does, in one write", (size) => {
    const payload = "x".repeat(size);
    const { bytes, writes, callbacks } = written(payload);
    expect(writes).toBe(1);
    expect(callbacks).toBe(1);
    expect(bytes.equals(wsFrame(payload))).toBe(true);
  });

  it("frames non-ASCII text (its UTF-8 length in the header) as ws does, in one write", () => {
    for (const payload of ["é", "✓".repeat(42), "😀".repeat(40_000), `{"text":"caf\u00e9 \ud800 lone"}`]) {
      const { bytes, writes } = written(payload);
      expect(writes).toBe(1);
      expect(bytes.equals(wsFrame(payload))).toBe(true);
    }
  });

  it("writes what ws writes for any text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), (payload) => {
        expect(written(payload).bytes.equals(wsFrame(payload))).toBe(true);
      }),
    );
  });
});
