import type { SessionUpdate } from "@acp-kit/protocol/types";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { updateJson } from "../src/update-json.js";

const kinds = ["agent_message_chunk", "agent_thought_chunk", "user_message_chunk"] as const;

describe("updateJson", () => {
  it("writes JSON that parses back to the update, for any text and message id (property)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...kinds),
        fc.string({ unit: "binary" }),
        fc.string({ unit: "binary" }),
        (kind, messageId, text) => {
          const update = { sessionUpdate: kind, messageId, content: { type: "text", text } } as SessionUpdate;
          expect(JSON.parse(updateJson(update))).toEqual(update);
        },
      ),
    );
  });

  it("keeps every field of updates off the plain shape", () => {
    const updates = [
      { sessionUpdate: "agent_message_chunk", messageId: "m", content: { type: "text", text: "a", _meta: { x: 1 } } },
      { sessionUpdate: "agent_message_chunk", messageId: "m", content: { type: "text", text: "a" }, _meta: { y: 2 } },
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "no id" } },
      {
        sessionUpdate: "agent_message_chunk",
        messageId: "m",
        content: { type: "image", data: "AA==", mimeType: "image/png" },
      },
      { sessionUpdate: "usage_update", used: 1, size: 2 },
    ] as unknown as SessionUpdate[];
    for (const update of updates) expect(updateJson(update)).toBe(JSON.stringify(update));
  });
});
