import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { updateLine } from "./update-line.js";

const generic = (update: unknown): string => `{"u":${JSON.stringify(update)}}\n`;

describe("updateLine", () => {
  it("writes a plain text chunk byte for byte as JSON.stringify does", () => {
    const update = { sessionUpdate: "agent_message_chunk", messageId: "m1", content: { type: "text", text: "hi" } };
    expect(updateLine(update as never)).toBe(generic(update));
  });

  it("reads back as the update for any chunk-like or other update (property)", () => {
    // Strings with quotes, backslashes, controls, lone and paired surrogates, U+2028.
    const text = fc.oneof(
      fc.string(),
      fc.string({ unit: "binary" }),
      fc.constantFrom('say "hi"', "a\\b", "tab\there", "\u2028", "\ud800", "😀", ""),
    );
    const chunk = fc.record(
      {
        sessionUpdate: fc.constantFrom("agent_message_chunk", "agent_thought_chunk", "user_message_chunk", "plan"),
        messageId: fc.oneof(text, fc.integer()),
        content: fc.oneof(
          fc.record({ type: fc.constantFrom("text", "image"), text }, { requiredKeys: [] }),
          fc.record({ type: fc.constant("text"), text, annotations: fc.object() }),
          fc.array(fc.record({ type: fc.constant("text"), text })),
        ),
        _meta: fc.object(),
      },
      { requiredKeys: ["sessionUpdate", "content"] },
    );
    // The plain shape itself, half of the runs.
    const plain = fc.record({
      sessionUpdate: fc.constantFrom("agent_message_chunk", "agent_thought_chunk", "user_message_chunk"),
      messageId: text,
      content: fc.record({ type: fc.constant("text"), text }),
    });
    const update = fc.oneof(plain, chunk);
    fc.assert(
      fc.property(update, fc.array(update, { maxLength: 3 }), (update, before) => {
        // Earlier lines (other message ids) must not leak into this one.
        for (const other of before) updateLine(other as never);
        const line = updateLine(update as never);
        expect(line.endsWith("\n")).toBe(true);
        expect(line.indexOf("\n")).toBe(line.length - 1);
        expect(JSON.parse(line)).toEqual(JSON.parse(generic(update)));
      }),
      { numRuns: 500 },
    );
  });

  it("takes the generic path for a chunk with more fields or a non-plain object", () => {
    const withMeta = {
      sessionUpdate: "agent_message_chunk",
      messageId: "m",
      content: { type: "text", text: "x" },
      _meta: { a: 1 },
    };
    expect(updateLine(withMeta as never)).toBe(generic(withMeta));
    class Content {
      type = "text";
      text = "x";
      toJSON() {
        return { type: "text", text: "from toJSON" };
      }
    }
    const custom = { sessionUpdate: "agent_message_chunk", messageId: "m", content: new Content() };
    expect(updateLine(custom as never)).toBe(generic(custom));
  });
});
