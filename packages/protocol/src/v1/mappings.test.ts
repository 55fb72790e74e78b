/**
 * The v1 ⇄ v2 value mappings both adapters share: whatever v1 can say comes back unchanged
 * from v2 (properties over random v1 values), and what v1 cannot say is left out.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type * as V1 from "../generated/v1/types.js";
import { configOptionToV1, configOptionToV2, modesToConfigOption } from "./config-options.js";
import { toolCallToV1, toolCallToV2, toolContentToV1, toolContentToV2 } from "./content.js";
import { authMethodsToV1, authMethodsToV2, mcpServersToV1, mcpServersToV2 } from "./setup.js";

const text = fc.string({ maxLength: 12 });
const fileText = fc.array(
  fc.string({ maxLength: 6 }).map((l) => l.replaceAll("\n", "")),
  { maxLength: 4 },
);
const path = text.map((t) => `/${t.replaceAll(/\s/g, "_")}`);

const diff: fc.Arbitrary<V1.ToolCallContent> = fc.record({
  type: fc.constant("diff" as const),
  path,
  oldText: fc.option(
    fileText.map((ls) => ls.map((l) => `${l}\n`).join("")),
    { nil: null },
  ),
  newText: fileText.map((ls) => ls.map((l) => `${l}\n`).join("")),
});
const content: fc.Arbitrary<V1.ToolCallContent> = text.map((t) => ({
  type: "content" as const,
  content: { type: "text" as const, text: t },
}));

const selectOption = fc.record({ value: text, name: text }, { requiredKeys: ["value", "name"] });
const configOption: fc.Arbitrary<V1.SessionConfigOption> = fc.oneof(
  fc.record({ id: text, name: text, type: fc.constant("boolean" as const), currentValue: fc.boolean() }),
  fc.record({
    id: text,
    name: text,
    type: fc.constant("select" as const),
    currentValue: text,
    options: fc.oneof(
      fc.array(selectOption, { maxLength: 3 }),
      fc.array(fc.record({ group: text, name: text, options: fc.array(selectOption, { maxLength: 2 }) }), {
        minLength: 1,
        maxLength: 2,
      }),
    ),
  }),
);

const authMethod: fc.Arbitrary<V1.AuthMethod> = fc.oneof(
  fc.record({ id: text, name: text }),
  fc.record(
    {
      id: text,
      type: fc.constant("terminal" as const),
      name: text,
      args: fc.array(text, { maxLength: 2 }),
      env: fc.dictionary(text, text, { maxKeys: 3 }),
    },
    { requiredKeys: ["id", "type", "name"] },
  ),
);
const variable = fc.record({ name: text, value: text });
const mcpServer: fc.Arbitrary<V1.McpServer> = fc.oneof(
  fc.record({ name: text, command: path, args: fc.array(text, { maxLength: 2 }), env: fc.array(variable) }),
  fc.record({ type: fc.constant("http" as const), name: text, url: text, headers: fc.array(variable) }),
);

describe("v1 values through v2 and back", () => {
  it("tool call content: a diff and a content block come back as they were", () => {
    fc.assert(
      fc.property(fc.oneof(diff, content), (v1) => {
        const expected = v1.type === "diff" ? { ...v1, oldText: v1.oldText ?? null } : v1;
        expect(toolContentToV1(toolContentToV2(v1))).toEqual([expected]);
      }),
    );
  });

  it("a tool call's fields, its content mapped", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(diff, content), { maxLength: 3 }), text, (list, title) => {
        const v1 = { toolCallId: "t", title, status: "in_progress" as const, content: list };
        const back = toolCallToV1(toolCallToV2(v1));
        expect(back).toEqual({ ...v1, content: list.flatMap((c) => toolContentToV1(toolContentToV2(c))) });
      }),
    );
  });

  it("config options, select groups included", () => {
    fc.assert(
      fc.property(configOption, (v1) => {
        expect(configOptionToV1(configOptionToV2(v1))).toEqual(v1);
      }),
    );
  });

  it("auth methods: the agent method untagged, a terminal method's environment a map", () => {
    fc.assert(
      fc.property(fc.array(authMethod, { maxLength: 3 }), (v1) => {
        expect(authMethodsToV1(authMethodsToV2(v1))).toEqual(v1);
      }),
    );
  });

  it("MCP servers over stdio and http", () => {
    fc.assert(
      fc.property(fc.array(mcpServer, { maxLength: 3 }), (v1) => {
        expect(mcpServersToV1(mcpServersToV2(v1))).toEqual(v1);
      }),
    );
  });
});

describe("what one version cannot say", () => {
  it.each([
    ["a terminal (the agent's own)", { type: "terminal" as const, terminalId: "t" }],
    ["an extension variant", { type: "_vendor" as const, data: 1 }],
  ])("tool content: %s has no v1 form", (_name, v2) => {
    expect(toolContentToV1(v2)).toEqual([]);
  });

  it("a diff whose patch does not read reaches v1 as its patch text, or its change list without one", () => {
    const changes = [
      { operation: "modify" as const, path: "/a" },
      { operation: "move" as const, oldPath: "/b", path: "/c" },
    ];
    expect(toolContentToV1({ type: "diff", changes, patch: { format: "git_patch", text: "P" } })).toEqual([
      { type: "content", content: { type: "text", text: "P" } },
    ]);
    expect(toolContentToV1({ type: "diff", changes })).toEqual([
      { type: "content", content: { type: "text", text: "modify /a\nmove /b -> /c" } },
    ]);
  });

  it("tool call capabilities, an sse MCP server, an extension auth method and config option are left out", () => {
    expect(toolCallToV1({ toolCallId: "t", capabilities: { cancel: {} } })).toEqual({ toolCallId: "t" });
    expect(mcpServersToV2([{ type: "sse", name: "s", url: "u", headers: [] }])).toEqual([]);
    expect(authMethodsToV1([{ type: "_vendor", methodId: "m", name: "M" }])).toEqual([]);
    expect(configOptionToV1({ configId: "c", name: "C", type: "_vendor" })).toBeUndefined();
  });

  it("v1 modes are the `mode` select option", () => {
    const modes = { currentModeId: "ask", availableModes: [{ id: "ask", name: "Ask", description: "Questions" }] };
    expect(modesToConfigOption(modes)).toEqual({
      configId: "mode",
      name: "Mode",
      category: "mode",
      type: "select",
      currentValue: "ask",
      options: [{ value: "ask", name: "Ask", description: "Questions" }],
    });
  });
});
