// Type tests for the generated types and method tables (run by `vitest run --typecheck`).
import { describe, expectTypeOf, test } from "vitest";
import type {
  AgentNotificationMethod,
  AgentRequestMethod,
  AgentRequests,
  ClientNotificationMethod,
  ClientRequestMethod,
  NotificationParams,
  ProtocolNotificationMethod,
  RequestMethod,
  RequestParams,
  RequestResult,
} from "./generated/methods.js";
import { METHODS, type PROTOCOL_VERSION, type SUPPORTED_PROTOCOL_VERSIONS } from "./generated/methods.js";
import type {
  AcpErrorObject,
  CancelRequestNotification,
  CancelSessionNotification,
  ContentBlock,
  CreateElicitationRequest,
  CreateElicitationResponse,
  Diff,
  ErrorCode,
  IdleStateUpdate,
  InitializeRequest,
  InitializeResponse,
  PromptRequest,
  PromptResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionUpdate,
  StateUpdate,
  ToolCallContent,
  ToolKind,
  UpdateSessionNotification,
} from "./generated/types.js";

describe("tagged unions narrow on their tag", () => {
  test("SessionUpdate on sessionUpdate", () => {
    const u = {} as SessionUpdate;
    if (u.sessionUpdate === "agent_message_chunk") {
      expectTypeOf(u.content).toEqualTypeOf<ContentBlock>();
      expectTypeOf(u.messageId).toBeString();
    }
    if (u.sessionUpdate === "state_update") {
      expectTypeOf(u.state).toEqualTypeOf<"running" | "idle" | "requires_action" | `_${string}`>();
    }
  });

  test("ContentBlock on type", () => {
    const b = {} as ContentBlock;
    if (b.type === "text") expectTypeOf(b.text).toBeString();
    if (b.type === "image") expectTypeOf(b.data).toBeString();
    if (b.type === "resource_link") expectTypeOf(b.uri).toBeString();
    if (
      b.type !== "text" &&
      b.type !== "image" &&
      b.type !== "audio" &&
      b.type !== "resource_link" &&
      b.type !== "resource"
    ) {
      // Only the catch-all is left: its tag is an extension tag and its fields are unknown.
      expectTypeOf(b.type).toEqualTypeOf<`_${string}`>();
      expectTypeOf(b.anything).toBeUnknown();
    }
  });

  test("nested: SessionUpdate -> ContentBlock", () => {
    const u = {} as SessionUpdate;
    if (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text")
      expectTypeOf(u.content.text).toBeString();
  });

  test("ToolCallContent on type", () => {
    const c = {} as ToolCallContent;
    if (c.type === "content") expectTypeOf(c.content).toEqualTypeOf<ContentBlock>();
    if (c.type === "diff") expectTypeOf(c).toMatchTypeOf<Diff>();
  });

  test("StateUpdate on state, IdleStateUpdate on stopReason", () => {
    const s = {} as StateUpdate;
    if (s.state === "idle") {
      expectTypeOf(s).toMatchTypeOf<IdleStateUpdate>();
      if (s.stopReason === "error") expectTypeOf(s.stopReason).toEqualTypeOf<"error">();
    }
    // @ts-expect-error `idle` fields are not on every state
    s.stopReason;
  });

  test("CreateElicitationRequest: shared fields plus variants on mode", () => {
    const r = {} as CreateElicitationRequest;
    expectTypeOf(r.message).toBeString();
    if (r.mode === "url") expectTypeOf(r.url).toBeString();
    if (r.mode === "form") expectTypeOf(r.requestedSchema.properties).toBeObject();
  });

  test("extension tags are accepted, unknown un-prefixed tags are not", () => {
    const extension: ContentBlock = { type: "_vendor.widget", payload: 1 };
    expectTypeOf(extension.type).toEqualTypeOf<`_${string}`>();
    // @ts-expect-error a future tag without `_` is not representable
    const future: ContentBlock = { type: "brand_new_block" };
    void future;
  });
});

describe("building values", () => {
  test("well-formed updates are accepted", () => {
    const chunk: UpdateSessionNotification = {
      sessionId: "s1",
      update: { sessionUpdate: "agent_message_chunk", messageId: "m1", content: { type: "text", text: "hi" } },
    };
    const idle: SessionUpdate = { sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" };
    const vendor: SessionUpdate = { sessionUpdate: "_acme.progress", percent: 40 };
    expectTypeOf([chunk.update, idle, vendor]).items.toEqualTypeOf<SessionUpdate>();
  });

  test("a misspelt field of a known variant is caught", () => {
    // @ts-expect-error `txt` is not a TextContent field
    const bad: ContentBlock = { type: "text", txt: "hi" };
    // @ts-expect-error `end_turns` is not a stop reason, and not an extension tag
    const badStop: SessionUpdate = { sessionUpdate: "state_update", state: "idle", stopReason: "end_turns" };
    void bad;
    void badStop;
  });
});

describe("open enums keep their literals", () => {
  test("ToolKind accepts any string but lists the known ones", () => {
    expectTypeOf<"read">().toMatchTypeOf<ToolKind>();
    expectTypeOf<string>().toMatchTypeOf<ToolKind>();
    expectTypeOf<ToolKind>().not.toEqualTypeOf<string>();
  });
  test("ErrorCode", () => {
    expectTypeOf<-32602>().toMatchTypeOf<ErrorCode>();
    expectTypeOf<AcpErrorObject["code"]>().toEqualTypeOf<ErrorCode>();
  });
});

describe("closed object types reject excess properties", () => {
  test("PromptRequest", () => {
    const ok: PromptRequest = { sessionId: "s", prompt: [{ type: "text", text: "hi" }] };
    void ok;
    // @ts-expect-error not a PromptRequest field
    const bad: PromptRequest = { sessionId: "s", prompt: [], promt: [] };
    void bad;
  });
  test("arrays are plain arrays, not non-empty tuples", () => {
    expectTypeOf<PromptRequest["prompt"]>().toEqualTypeOf<ContentBlock[]>();
  });
});

describe("method tables", () => {
  test("a request method maps to its params and result", () => {
    expectTypeOf<RequestParams<"initialize">>().toEqualTypeOf<InitializeRequest>();
    expectTypeOf<RequestResult<"initialize">>().toEqualTypeOf<InitializeResponse>();
    expectTypeOf<RequestParams<"session/prompt">>().toEqualTypeOf<PromptRequest>();
    expectTypeOf<RequestResult<"session/prompt">>().toEqualTypeOf<PromptResponse>();
    expectTypeOf<RequestParams<"session/request_permission">>().toEqualTypeOf<RequestPermissionRequest>();
    expectTypeOf<RequestResult<"session/request_permission">>().toEqualTypeOf<RequestPermissionResponse>();
    expectTypeOf<RequestResult<"elicitation/create">>().toEqualTypeOf<CreateElicitationResponse>();
    expectTypeOf<AgentRequests["session/prompt"]>().toEqualTypeOf<{ params: PromptRequest; result: PromptResponse }>();
  });

  test("notifications map to their params", () => {
    expectTypeOf<NotificationParams<"session/update">>().toEqualTypeOf<UpdateSessionNotification>();
    expectTypeOf<NotificationParams<"session/cancel">>().toEqualTypeOf<CancelSessionNotification>();
    expectTypeOf<NotificationParams<"$/cancel_request">>().toEqualTypeOf<CancelRequestNotification>();
  });

  test("method groups split by handling side", () => {
    expectTypeOf<ClientRequestMethod>().toEqualTypeOf<"session/request_permission" | "elicitation/create">();
    expectTypeOf<AgentNotificationMethod>().toEqualTypeOf<"session/cancel">();
    expectTypeOf<ClientNotificationMethod>().toEqualTypeOf<"session/update" | "elicitation/complete">();
    expectTypeOf<ProtocolNotificationMethod>().toEqualTypeOf<"$/cancel_request">();
    expectTypeOf<"session/prompt">().toMatchTypeOf<AgentRequestMethod>();
    expectTypeOf<"session/update">().not.toMatchTypeOf<RequestMethod>();
    expectTypeOf<CreateElicitationRequest>().toEqualTypeOf<RequestParams<"elicitation/create">>();
  });

  test("unknown method names are type errors", () => {
    // @ts-expect-error not a method
    type Bad = RequestParams<"session/promt">;
    // @ts-expect-error notifications are not requests
    type AlsoBad = RequestResult<"session/update">;
    // @ts-expect-error not a notification
    type NotNotification = NotificationParams<"initialize">;
    expectTypeOf<Bad | AlsoBad | NotNotification>().not.toBeNever();
  });

  test("runtime table is typed by wire name", () => {
    expectTypeOf(METHODS["session/prompt"].result).toEqualTypeOf<"PromptResponse">();
    expectTypeOf(METHODS["session/update"].handledBy).toEqualTypeOf<"client">();
    expectTypeOf(METHODS["$/cancel_request"].handledBy).toEqualTypeOf<"both">();
    expectTypeOf<typeof PROTOCOL_VERSION>().toEqualTypeOf<2>();
    expectTypeOf<typeof SUPPORTED_PROTOCOL_VERSIONS>().toEqualTypeOf<readonly [2]>();
  });
});
