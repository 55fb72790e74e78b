// Inputs at the edges: prototype-named keys, deep nesting, huge arrays, big integers, paths
// that need escaping, and what a repaired value shares with its input.
import { describe, expect, it } from "vitest";
import {
  decodeCreateElicitationRequest,
  decoders,
  decodeSessionUpdate,
  decodeToolCallUpdate,
  validateSessionUpdate,
} from "../src/generated/decoders.ts";

describe("keys named like Object.prototype members", () => {
  it("keeps an own __proto__ key as data, also through a repair, without touching prototypes", () => {
    const input = JSON.parse(
      '{"sessionUpdate":"tool_call_update","toolCallId":"t","status":42,"__proto__":{"polluted":true}}',
    ) as Record<string, unknown>;
    const result = decodeSessionUpdate(input);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const value = result.value as Record<string, unknown>;
    expect(value).not.toBe(input);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toEqual({ polluted: true });
    expect(Object.hasOwn(value, "status")).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("does not read inherited members as fields", () => {
    // `constructor` is inherited by every object; a map decoder must only see own keys.
    const input = JSON.parse(
      '{"mode":"form","message":"m","sessionId":"s","requestedSchema":{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"boolean","default":5}}}}',
    );
    const result = decodeCreateElicitationRequest(input);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const properties = (result.value as { requestedSchema: { properties: Record<string, unknown> } }).requestedSchema
      .properties;
    expect(Object.getOwnPropertyDescriptor(properties, "__proto__")?.value).toEqual({ type: "string" });
    expect(properties.constructor).toEqual({ type: "boolean" });
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
  });
});

describe("size and depth", () => {
  it("passes deeply nested untyped payloads through without walking them", () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const result = decodeToolCallUpdate({ toolCallId: "t", rawInput: deep, _meta: { deep } });
    expect(result.ok).toBe(true);
  });

  it("rejects deep nesting in a typed position quickly, with a path", () => {
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const result = decodeSessionUpdate({ sessionUpdate: "agent_message_chunk", messageId: "m", content: deep });
    expect(result).toEqual({ ok: false, error: { path: "/content", message: "must be an object" } });
  });

  it("skips invalid items in a huge array and keeps the rest in order", () => {
    const content = Array.from({ length: 200_000 }, (_, i) =>
      i % 2 === 0 ? { type: "text", text: String(i) } : { type: "image" },
    );
    const result = decodeSessionUpdate({ sessionUpdate: "user_message", messageId: "m", content });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const kept = (result.value as { content: { text: string }[] }).content;
    expect(kept.length).toBe(100_000);
    expect(kept[0]?.text).toBe("0");
    expect(kept[99_999]?.text).toBe("199998");
  });
});

describe("request ids", () => {
  it("accepts integers beyond 2^53 as JSON.parse gives them, and strings", () => {
    const params = JSON.parse('{"requestId": 9223372036854775807}');
    expect(decoders["$/cancel_request"].params(params)).toEqual({ ok: true, value: params });
    expect(decoders["$/cancel_request"].params({ requestId: "" }).ok).toBe(true);
  });

  it("rejects null, fractions and values outside int64", () => {
    for (const requestId of [null, 0.5, 2 ** 64, Number.NaN, Number.POSITIVE_INFINITY, true, {}]) {
      expect(decoders["$/cancel_request"].params({ requestId }).ok).toBe(false);
    }
  });
});

describe("failures", () => {
  it("escapes ~ and / in JSON Pointer paths", () => {
    const result = decodeCreateElicitationRequest({
      mode: "form",
      message: "m",
      sessionId: "s",
      requestedSchema: { type: "object", properties: { "a/b~c": { type: "string", minLength: -1 } } },
    });
    expect(result).toEqual({
      ok: false,
      error: {
        path: "/requestedSchema/properties/a~1b~0c/minLength",
        message: "must be an integer (uint32) >= 0 or null",
      },
    });
  });

  it("reports the first failure only, the same way in decode and validate", () => {
    const input = { sessionUpdate: "tool_call_content_chunk", toolCallId: 1, content: 2 };
    expect(decodeSessionUpdate(input)).toEqual({
      ok: false,
      error: { path: "/toolCallId", message: "must be a string" },
    });
    expect(validateSessionUpdate(input)).toEqual(decodeSessionUpdate(input));
  });

  it("leaves no state behind between calls", () => {
    expect(decodeSessionUpdate({ sessionUpdate: "notice", severity: "info", title: "" }).ok).toBe(false);
    const ok = decodeSessionUpdate({ sessionUpdate: "notice", severity: "info", title: "t" });
    expect(ok.ok).toBe(true);
    expect(decodeSessionUpdate({ sessionUpdate: "usage_update", used: 1 })).toEqual({
      ok: false,
      error: { path: "/size", message: "required property is missing" },
    });
  });
});

describe("repairs copy only what changed", () => {
  it("shares unchanged subtrees with the input and never writes into it", () => {
    const content = [{ type: "text", text: "a", annotations: { audience: ["user"] } }];
    const input = Object.freeze({ sessionUpdate: "agent_message", messageId: "m", content, _meta: 5 });
    const result = decodeSessionUpdate(input);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const value = result.value as { content: unknown; _meta?: unknown };
    expect(value).not.toBe(input);
    expect(value.content).toBe(content);
    expect("_meta" in value).toBe(false);
    expect(input._meta).toBe(5);
  });
});
