import { describe, expect, test } from "vitest";
import { methodsOf } from "../src/method-model.ts";
import { type AcpSchema, loadPinnedSchema } from "../src/schema-source.ts";

const { schema } = loadPinnedSchema();

describe("methodsOf", () => {
  const methods = methodsOf(schema);
  const names = (group: string) =>
    methods
      .filter((m) => m.group === group)
      .map((m) => m.method)
      .sort();

  test("reads every stable method with its handling side", () => {
    expect(names("AgentRequests")).toEqual([
      "auth/login",
      "auth/logout",
      "initialize",
      "session/close",
      "session/delete",
      "session/list",
      "session/new",
      "session/prompt",
      "session/resume",
      "session/set_config_option",
      "terminal/cancel",
      "tool_call/cancel",
    ]);
    expect(names("ClientRequests")).toEqual(["elicitation/create", "session/request_permission"]);
    expect(names("AgentNotifications")).toEqual(["session/cancel"]);
    expect(names("ClientNotifications")).toEqual(["elicitation/complete", "session/update"]);
    expect(names("ProtocolNotifications")).toEqual(["$/cancel_request"]);
    expect(methods.find((m) => m.method === "$/cancel_request")?.handledBy).toBe("both");
  });

  test("pairs requests with responses by type name", () => {
    expect(methods.find((m) => m.method === "session/prompt")).toMatchObject({
      kind: "request",
      params: "PromptRequest",
      result: "PromptResponse",
    });
    expect(methods.find((m) => m.method === "session/update")).toEqual({
      method: "session/update",
      handledBy: "client",
      kind: "notification",
      params: "UpdateSessionNotification",
      group: "ClientNotifications",
    });
  });

  test("a request without a response def fails loudly", () => {
    const broken = structuredClone(schema) as AcpSchema;
    delete broken.$defs.PromptResponse;
    expect(() => methodsOf(broken)).toThrow("request session/prompt lacks a Response def");
  });

  test("an unknown x-side fails loudly", () => {
    const broken = structuredClone(schema) as AcpSchema;
    (broken.$defs.CancelSessionNotification as Record<string, unknown>)["x-side"] = "proxy";
    expect(() => methodsOf(broken)).toThrow('method session/cancel has unknown x-side "proxy"');
  });
});
