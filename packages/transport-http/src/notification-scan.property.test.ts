// The scan answers only when it is sure, and then as parsing would: for any JSON-RPC-like
// object, written compactly or with whitespace, whatever the keys' order and escapes.
import fc from "fast-check";
import { expect, it } from "vitest";
import { scanNotification } from "./notification-scan.js";
import { shapeOf } from "./wire.js";

const text = fc.oneof(
  fc.string(),
  fc.constantFrom("s1", 'quo"te', "back\\slash", "new\nline", "é ü 😀", "\u2028", "}", "{[", '\\"'),
);
const json = fc.jsonValue({ maxDepth: 3 });
const params = fc.oneof(
  fc.dictionary(fc.constantFrom("sessionId", "update", "x", "session\\Id"), fc.oneof(text, json), { maxKeys: 3 }),
  json,
);
const message = fc.dictionary(
  fc.constantFrom("jsonrpc", "id", "method", "params", "result", "error", "other", 'met"hod'),
  fc.oneof(text, fc.integer(), params, json),
  { maxKeys: 5 },
);

it("answers as parsing does, for any object, and for every plain notification", () => {
  fc.assert(
    fc.property(message, fc.constantFrom(undefined, 1, "\t"), (record, indent) => {
      const payload = JSON.stringify(record, null, indent);
      const shape = shapeOf(JSON.parse(payload));
      const scanned = scanNotification(payload);
      if (scanned !== undefined) {
        expect(shape.kind).toBe("notification");
        expect(scanned).toEqual({ method: shape.method, sessionId: shape.sessionId });
      }
      // Without escapes where the scan looks, a notification is always recognized.
      const plain = (value: unknown) => typeof value !== "string" || !JSON.stringify(value).includes("\\");
      const p = record.params as Record<string, unknown> | undefined;
      const looked =
        Object.keys(record).every(plain) &&
        plain(record.method) &&
        (typeof p !== "object" ||
          p === null ||
          Array.isArray(p) ||
          (Object.keys(p).every(plain) && plain(p.sessionId)));
      if (shape.kind === "notification" && looked) expect(scanned).toBeDefined();
    }),
    { numRuns: 2000 },
  );
});

it("recognizes a session/update as our connection writes it, and refuses what is not one", () => {
  const update = JSON.stringify({
    jsonrpc: "2.0",
    method: "session/update",
    params: { sessionId: "sess_1", update: { sessionUpdate: "agent_message_chunk", content: { text: 'a "q" \\ }' } } },
  });
  expect(scanNotification(update)).toEqual({ method: "session/update", sessionId: "sess_1" });
  expect(scanNotification('{"jsonrpc":"2.0","method":"m","params":{}}')).toEqual({ method: "m", sessionId: undefined });
  for (const other of [
    '{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s"}}',
    '{"jsonrpc":"2.0","method":"m","params":{"sessionId":"s"},"id":null}',
    '{"jsonrpc":"2.0","id":1,"result":{}}',
    '{"jsonrpc":"2.0","method":"m"',
    '{"jsonrpc":"2.0","method":"m"} x',
    "[]",
    "",
    '{"method":1}',
  ])
    expect(scanNotification(other)).toBeUndefined();
});
