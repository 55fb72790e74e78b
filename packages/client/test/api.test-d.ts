// Pins the public types a client author relies on.
import type { ContentBlock, SessionUpdate } from "@acp-kit/protocol/types";
import { describe, expectTypeOf, it } from "vitest";
import type {
  AcpClient,
  ClientSession,
  ForegroundWork,
  MessageEntry,
  SessionSnapshot,
  SessionStore,
  StopReason,
  TimelineEntry,
  Turn,
  TurnResult,
  WorkProgress,
} from "../src/index.js";

describe("public API types", () => {
  it("prompt takes text, a block or blocks and returns a Turn", () => {
    expectTypeOf<ClientSession["prompt"]>()
      .parameter(0)
      .toEqualTypeOf<string | ContentBlock | readonly ContentBlock[]>();
    expectTypeOf<ReturnType<ClientSession["prompt"]>>().toEqualTypeOf<Turn>();
    expectTypeOf<Turn["messageId"]>().toEqualTypeOf<Promise<string>>();
    expectTypeOf<Turn["done"]>().toEqualTypeOf<Promise<TurnResult>>();
    expectTypeOf<TurnResult["stopReason"]>().toEqualTypeOf<StopReason | undefined>();
    expectTypeOf<Turn["accepted"]>().toEqualTypeOf<Promise<string>>();
    expectTypeOf<Turn["work"]>().toEqualTypeOf<ForegroundWork | undefined>();
    expectTypeOf<Turn>().toMatchTypeOf<WorkProgress>();
    expectTypeOf<ForegroundWork>().toMatchTypeOf<WorkProgress>();
    expectTypeOf<Turn>().toMatchTypeOf<AsyncIterable<SessionUpdate>>();
  });

  it("iterated updates narrow on their tag", () => {
    const handle = (update: SessionUpdate) => {
      if (update.sessionUpdate === "agent_message_chunk") expectTypeOf(update.content).toEqualTypeOf<ContentBlock>();
      if (update.sessionUpdate === "tool_call_update") expectTypeOf(update.toolCallId).toBeString();
    };
    expectTypeOf(handle).toBeFunction();
  });

  it("the store works with useSyncExternalStore's signature", () => {
    expectTypeOf<SessionStore["subscribe"]>().toEqualTypeOf<(listener: () => void) => () => void>();
    expectTypeOf<SessionStore["getSnapshot"]>().toEqualTypeOf<() => SessionSnapshot>();
    expectTypeOf<SessionSnapshot["messages"]["agent"]>().toEqualTypeOf<ReadonlyMap<string, MessageEntry>>();
    expectTypeOf<Extract<TimelineEntry, { type: "terminal" }>["output"]>().toEqualTypeOf<Uint8Array>();
  });

  it("client methods", () => {
    expectTypeOf<AcpClient["newSession"]>().returns.toEqualTypeOf<Promise<ClientSession>>();
    expectTypeOf<AcpClient["closed"]>().resolves.toEqualTypeOf<
      import("@acp-kit/protocol/jsonrpc").ConnectionError | undefined
    >();
  });
});
