import type { AgentCapabilities } from "@acp-kit/protocol/types";
import { describe, expectTypeOf, it } from "vitest";
import { type AgentSession, defineAgent, type PermissionDecision, type StopReason, type Turn } from "../src/index.js";

const info = { name: "t", version: "1" };

describe("defineAgent types", () => {
  it("accepts an async prompt handler returning a literal stop reason", () => {
    defineAgent({
      info,
      async prompt(turn) {
        expectTypeOf(turn).toEqualTypeOf<Turn>();
        return "end_turn";
      },
    });
    defineAgent({ info, prompt: async () => "_vendor_reason" });
    defineAgent({ info, prompt: async () => {} });
  });

  it("rejects stop reasons that are neither standard nor _-prefixed", () => {
    // @ts-expect-error "finished" is not a StopReason
    defineAgent({ info, prompt: async () => "finished" as const });
  });

  it("types capabilities as object markers, never booleans", () => {
    const ok: AgentCapabilities = { session: { prompt: { image: {} }, delete: {} } };
    defineAgent({ info, capabilities: ok, prompt: async () => {} });
    // @ts-expect-error booleans are not capability markers
    defineAgent({ info, capabilities: { session: { prompt: { image: true } } }, prompt: async () => {} });
  });

  it("requires info and prompt", () => {
    // @ts-expect-error prompt is required
    defineAgent({ info });
    // @ts-expect-error info is required
    defineAgent({ prompt: async () => {} });
  });
});

describe("turn and session types", () => {
  it("exposes typed builders and results", () => {
    defineAgent({
      info,
      async prompt(turn) {
        expectTypeOf(turn.signal).toEqualTypeOf<AbortSignal>();
        expectTypeOf(turn.session).toEqualTypeOf<AgentSession>();
        expectTypeOf(turn.messageId).toEqualTypeOf<string | undefined>();
        expectTypeOf(turn.requestPermission({ title: "x" })).resolves.toEqualTypeOf<PermissionDecision>();
        const call = turn.toolCall({ title: "Read", kind: "read" });
        // @ts-expect-error kind is an open string enum; a number is refused
        turn.toolCall({ title: "Read", kind: 3 });
        expectTypeOf(call.id).toEqualTypeOf<string>();
        expectTypeOf(turn.session.startWork(async () => "end_turn")).resolves.toEqualTypeOf<StopReason>();
        // @ts-expect-error an elicitation needs its mode's fields
        void turn.elicit({ mode: "url", message: "x" });
      },
    });
  });
});
