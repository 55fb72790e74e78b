// The text chunk serializer must write exactly what JSON.stringify writes, for the shape it
// takes and for every near miss it must leave alone.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeTextChunk } from "./chunk-encoding.js";
import { agentSideTables, clientSideTables } from "./side-tables.js";

const stringified = (method: string, params: unknown) => JSON.stringify({ jsonrpc: "2.0", method, params });
const sent = (method: string, params: unknown) =>
  encodeTextChunk(method, params) ?? JSON.stringify({ jsonrpc: "2.0", method, params });

/** Any string, lone surrogates, quotes, backslashes and control characters included. */
const text = fc.string({ unit: "binary", maxLength: 40 });
const chunkKind = fc.constantFrom("agent_message_chunk", "agent_thought_chunk", "user_message_chunk");

/** The shape the agent's message builders produce (object literals, as the builders write them). */
const exact = fc.tuple(text, chunkKind, text, text).map(([sessionId, sessionUpdate, messageId, body]) => ({
  sessionId,
  update: { sessionUpdate, messageId, content: { type: "text", text: body } },
}));

class Content {
  constructor(
    readonly type: string,
    readonly text: string,
  ) {}
}

/** An object with the same entries as `entries`, in a shuffled order or with one change. */
const nearMiss = (entries: Record<string, unknown>): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.shuffledSubarray(Object.keys(entries), { minLength: 0 }).map((keys) => pick(entries, keys)),
    fc.constant({ ...entries, _meta: { a: 1 } }),
    fc.constant({ ...entries, extra: undefined }),
    fc.constant({ ...entries, toJSON: () => "replaced" }),
    fc.constant(Object.assign(Object.create(null), entries)),
    fc.constant(Object.assign(Object.create({ toJSON: () => "inherited" }), entries)),
    fc.constant([entries]),
    fc.constantFrom(null, "text", 7),
  );
const pick = (entries: Record<string, unknown>, keys: string[]) =>
  Object.fromEntries(keys.map((key) => [key, entries[key]]));

/** A chunk with one part replaced by a near miss (or an unexpected value). */
const variant = fc
  .tuple(exact, fc.constantFrom("params", "update", "content", "value"), fc.nat())
  .chain(([params, where, n]) => {
    const { update } = params;
    const content = update.content;
    if (where === "params") return nearMiss(params);
    if (where === "update") return nearMiss(update).map((u) => ({ sessionId: params.sessionId, update: u }));
    if (where === "content") return nearMiss(content).map((c) => ({ ...params, update: { ...update, content: c } }));
    const odd = [1, null, undefined, { text: "x" }, "image", new Content("text", "x"), ["x"]][n % 7];
    const spots = [
      { sessionId: odd, update },
      { ...params, update: { ...update, sessionUpdate: odd ?? "tool_call_update" } },
      { ...params, update: { ...update, messageId: odd } },
      { ...params, update: { ...update, content: { type: odd, text: content.text } } },
      { ...params, update: { ...update, content: { type: "text", text: odd } } },
      { ...params, update: { ...update, content: odd } },
    ];
    return fc.constant(spots[n % spots.length]);
  });

describe("encodeTextChunk", () => {
  it("takes the builders' shape and writes what JSON.stringify writes", () => {
    fc.assert(
      fc.property(exact, (params) => {
        const encoded = encodeTextChunk("session/update", params);
        expect(encoded).toBe(stringified("session/update", params));
        expect(JSON.parse(encoded as string).params).toEqual(params);
      }),
      { numRuns: 500 },
    );
  });

  it("reuses a message's payload head only for the same session, kind and message", () => {
    // Few distinct values, so that consecutive chunks share some fields and differ in others.
    const small = fc.constantFrom("a", "b", 'q"');
    const chunk = fc.tuple(small, chunkKind, small, text).map(([sessionId, sessionUpdate, messageId, body]) => ({
      sessionId,
      update: { sessionUpdate, messageId, content: { type: "text", text: body } },
    }));
    fc.assert(
      fc.property(fc.array(chunk, { maxLength: 30 }), (chunks) => {
        for (const params of chunks)
          expect(encodeTextChunk("session/update", params)).toBe(stringified("session/update", params));
      }),
      { numRuns: 300 },
    );
  });

  it("writes the right head for thousands of messages streaming at once, their chunks interleaved", () => {
    // More messages than one generation of remembered heads holds, each chunk's message picked at
    // random; the same message id also comes with another session and kind.
    const pick = fc.array(fc.tuple(fc.nat(5000), fc.nat(3)), { minLength: 4000, maxLength: 6000 });
    fc.assert(
      fc.property(pick, (picks) => {
        for (const [message, variant] of picks) {
          const params = {
            sessionId: `s${variant === 3 ? message + 1 : message}`,
            update: {
              sessionUpdate: variant === 2 ? "agent_thought_chunk" : "agent_message_chunk",
              messageId: `m${message}`,
              content: { type: "text", text: `t${variant}` },
            },
          };
          expect(encodeTextChunk("session/update", params)).toBe(stringified("session/update", params));
        }
      }),
      { numRuns: 5 },
    );
  });

  it("leaves every near miss to JSON.stringify, so what is sent never differs from it", () => {
    fc.assert(
      fc.property(variant, (params) => {
        expect(sent("session/update", params)).toBe(stringified("session/update", params));
      }),
      { numRuns: 2000 },
    );
  });

  it("takes only session/update", () => {
    const params = {
      sessionId: "s",
      update: { sessionUpdate: "agent_message_chunk", messageId: "m", content: { type: "text", text: "x" } },
    };
    expect(encodeTextChunk("session/update", params)).toBeDefined();
    expect(encodeTextChunk("_vendor/update", params)).toBeUndefined();
  });

  it("serves the agent's connection only (the client never sends chunks)", () => {
    expect(agentSideTables().encodeNotification).toBe(encodeTextChunk);
    expect(clientSideTables().encodeNotification).toBeUndefined();
  });
});
