/**
 * Property: whatever v2 updates and permission requests the engine sends, what the v1
 * projection makes of them is exact v1. Each projected message is validated strictly by the v1
 * decoders generated from `schema/v1` (no value v1's closed enums do not list, nothing
 * repaired) and read by the official SDK's v1 schemas, which strip what they do not know: it
 * must come out of them unchanged (nothing stripped, no field v1 does not have).
 *
 * The v2 inputs cover every update the projection reads, with every enum's known values, an
 * unknown one and an extension (`_`) one, extension content blocks and tool content, terminals
 * and diffs; each input is checked to be valid v2 first, so the generator cannot drift.
 */
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import {
  validateUpdateSessionNotification,
  validateRequestPermissionRequest as validateV2Permission,
} from "@acp-kit/protocol/decoders";
import type { RequestPermissionRequest, SessionUpdate } from "@acp-kit/protocol/types";
import { validateRequestPermissionRequest, validateSessionNotification, wholeFilePatch } from "@acp-kit/protocol/v1";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { V1SessionProjection } from "../src/v1/session-projection.js";
import { permissionRequestToV1 } from "../src/v1/values.js";

interface ZodLike {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: unknown };
}
// The SDK's v1 zod schemas, by file path (they are not in its exports map).
const v1Entry = fileURLToPath(import.meta.resolve("@agentclientprotocol/sdk"));
const sdkV1 = (await import(pathToFileURL(join(dirname(v1Entry), "..", "schema", "zod.gen.js")).href)) as Record<
  string,
  ZodLike
>;

/** Problems of one v1 message: strict validation, then the SDK's reading of it. */
function v1Problems(kind: "SessionNotification" | "RequestPermissionRequest", value: unknown): string[] {
  const strict =
    kind === "SessionNotification" ? validateSessionNotification(value) : validateRequestPermissionRequest(value);
  const problems = strict.ok ? [] : [`strict: ${JSON.stringify(strict.error)}`];
  const parsed = sdkV1[`z${kind}`]?.safeParse(structuredClone(value));
  if (parsed === undefined || !parsed.success)
    problems.push(`sdk rejects: ${JSON.stringify(parsed?.success === false ? parsed.error : "no schema")}`);
  // zod leaves `key: undefined` where it dropped a field; the wire has no such key.
  else if (!isDeepStrictEqual(JSON.parse(JSON.stringify(parsed.data)), JSON.parse(JSON.stringify(value))))
    problems.push(`sdk strips: ${JSON.stringify(parsed.data)}`);
  return problems.map((p) => `${p} in ${JSON.stringify(value)}`);
}

const word = fc.string({ minLength: 1, maxLength: 6 });
const open = <T extends string>(...known: T[]) => fc.constantFrom<string>(...known, "future_value", "_vendor.x");
const meta = fc.option(fc.constant({ "vendor.dev/k": 1 }), { nil: undefined });
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const annotations = fc.record(
  {
    audience: fc.array(open("assistant", "user"), { maxLength: 3 }),
    priority: fc.double({ min: 0, max: 1, noNaN: true }),
  },
  { requiredKeys: [] },
);
const block = fc.oneof(
  fc.record(
    { type: fc.constant("text"), text: word, annotations: optional(annotations), _meta: meta },
    { requiredKeys: ["type", "text"] },
  ),
  fc.record({ type: fc.constant("image"), data: fc.constant("AAAA"), mimeType: fc.constant("image/png") }),
  fc.record({ type: fc.constant("audio"), data: fc.constant("AAAA"), mimeType: fc.constant("audio/wav") }),
  fc.record(
    {
      type: fc.constant("resource_link"),
      name: word,
      uri: fc.constant("file:///w/a.ts"),
      icons: fc.constant([{ src: "https://example.com/i.png" }]),
      annotations: optional(annotations),
    },
    { requiredKeys: ["type", "name", "uri"] },
  ),
  fc.record({
    type: fc.constant("resource"),
    resource: fc.record({ uri: fc.constant("file:///w/a.ts"), text: word }),
  }),
  fc.record({ type: fc.constantFrom("_vendor.block"), payload: word }),
);

const path = word.map((w) => `/w/${w.replace(/[^a-z0-9]/gi, "x")}.ts`);
const fileText = fc
  .array(
    word.map((w) => `${w.replaceAll("\n", " ")}\n`),
    { maxLength: 3 },
  )
  .map((ls) => ls.join(""));
const diff = fc.oneof(
  fc.tuple(path, fc.option(fileText, { nil: null }), fileText).map(([p, before, after]) => ({
    type: "diff" as const,
    changes: [{ operation: before === null ? "add" : "modify", path: p }],
    patch: { format: "git_patch", text: wholeFilePatch(p, before, after) },
  })),
  fc
    .tuple(path, path)
    .map(([from, to]) => ({ type: "diff" as const, changes: [{ operation: "move", oldPath: from, path: to }] })),
  path.map((p) => ({
    type: "diff" as const,
    changes: [{ operation: "modify", path: p }],
    patch: { format: "git_patch", text: "not a patch" },
  })),
);
const terminalId = fc.constantFrom("term-1", "term-2");
const toolContent = fc.oneof(
  block.map((content) => ({ type: "content" as const, content })),
  diff,
  terminalId.map((id) => ({ type: "terminal" as const, terminalId: id })),
  fc.constant({ type: "_vendor.widget", data: 1 }),
);
const toolCallId = fc.constantFrom("call-1", "call-2", "call-3");
const toolCallFields = fc.record(
  {
    toolCallId,
    title: word,
    name: word,
    kind: open("read", "edit", "delete", "move", "search", "execute", "think", "fetch", "switch_mode", "other"),
    status: open("pending", "in_progress", "paused", "completed", "failed", "cancelled"),
    content: fc.array(toolContent, { maxLength: 3 }),
    locations: fc.array(fc.record({ path }), { maxLength: 2 }),
    rawInput: fc.constant({ a: 1 }),
    capabilities: fc.constant({ cancel: {} }),
  },
  { requiredKeys: ["toolCallId"] },
);
const base64 = fc.uint8Array({ maxLength: 8 }).map((bytes) => Buffer.from(bytes).toString("base64"));
const planEntry = fc.record({
  content: word,
  priority: open("high", "medium", "low"),
  status: open("pending", "in_progress", "completed", "cancelled"),
});
const messageId = fc.constantFrom("m-1", "m-2");

const update: fc.Arbitrary<SessionUpdate> = fc.oneof(
  fc.record({
    sessionUpdate: fc.constantFrom("agent_message_chunk", "agent_thought_chunk", "user_message_chunk"),
    messageId,
    content: block,
  }),
  fc.record({
    sessionUpdate: fc.constantFrom("agent_message", "agent_thought", "user_message"),
    messageId,
    content: fc.array(block, { maxLength: 3 }),
  }),
  toolCallFields.map((fields) => ({ sessionUpdate: "tool_call_update", ...fields })),
  fc.record({ sessionUpdate: fc.constant("tool_call_content_chunk"), toolCallId, content: toolContent }),
  fc.record({ sessionUpdate: fc.constant("terminal_output_chunk"), terminalId, data: base64 }),
  fc.record(
    {
      sessionUpdate: fc.constant("terminal_update"),
      terminalId,
      output: fc.option(
        base64.map((data) => ({ data })),
        { nil: null },
      ),
    },
    { requiredKeys: ["sessionUpdate", "terminalId"] },
  ),
  fc.record({
    sessionUpdate: fc.constant("plan_update"),
    plan: fc.oneof(
      fc.record({
        type: fc.constant("items"),
        planId: fc.constant("p"),
        entries: fc.array(planEntry, { maxLength: 3 }),
      }),
      fc.constant({ type: "_vendor.plan", planId: "p" }),
    ),
  }),
  fc.record({
    sessionUpdate: fc.constant("available_commands_update"),
    availableCommands: fc.array(
      fc.oneof(
        fc.record(
          {
            type: fc.constant("command"),
            name: word.map((w) => w.replace(/\s/g, "_")),
            description: word,
            input: fc.oneof(
              fc.constant(null),
              fc.record({ type: fc.constant("text"), hint: word }),
              fc.constant({ type: "_vendor.input" }),
            ),
          },
          { requiredKeys: ["type", "name", "description"] },
        ),
        fc.constant({ type: "_vendor.command", name: "x", description: "y" }),
      ),
      { maxLength: 2 },
    ),
  }),
  fc.record({
    sessionUpdate: fc.constant("config_option_update"),
    configOptions: fc.array(
      fc.oneof(
        fc.record({ configId: word, name: word, type: fc.constant("boolean"), currentValue: fc.boolean() }),
        fc.record({
          configId: word,
          name: word,
          category: open("mode", "model", "thought_level"),
          type: fc.constant("select"),
          currentValue: fc.constant("a"),
          options: fc.constant([{ value: "a", name: "A" }]),
        }),
      ),
      { maxLength: 2 },
    ),
  }),
  fc.record({
    sessionUpdate: fc.constant("usage_update"),
    used: fc.nat(),
    size: fc.nat(),
    cost: fc.constant({ amount: 0.5, currency: "USD" }),
  }),
  fc.record({ sessionUpdate: fc.constant("session_info_update"), title: fc.option(word, { nil: null }) }),
  fc.record({ sessionUpdate: fc.constant("notice"), severity: open("info", "warning", "error"), title: word }),
  fc.record({
    sessionUpdate: fc.constant("compaction_update"),
    compactionId: fc.constant("c"),
    status: open("in_progress", "completed", "failed", "cancelled"),
    summary: fc.array(block, { maxLength: 2 }),
  }),
  fc.record({ sessionUpdate: fc.constant("compaction_summary_chunk"), compactionId: fc.constant("c"), content: block }),
  fc.record({ sessionUpdate: fc.constant("state_update"), state: fc.constantFrom("running", "idle") }),
  fc.constant({ sessionUpdate: "_vendor.update", x: 1 }),
) as fc.Arbitrary<SessionUpdate>;

const permission: fc.Arbitrary<RequestPermissionRequest> = fc.record(
  {
    sessionId: fc.constant("s"),
    title: word,
    description: word,
    subject: fc.oneof(
      toolCallFields.map((toolCall) => ({ type: "tool_call", toolCall })),
      fc.record(
        { type: fc.constant("command"), command: word, cwd: fc.constant("/w"), toolCallId: optional(toolCallId) },
        {
          requiredKeys: ["type", "command", "cwd"],
        },
      ),
      fc.constant({ type: "_vendor.subject" }),
    ),
    options: fc.constant([
      { optionId: "a", name: "Allow", kind: "allow_once" },
      { optionId: "r", name: "Reject", kind: "reject_always" },
      { optionId: "v", name: "Vendor", kind: "_vendor.kind" },
    ]),
  },
  { requiredKeys: ["sessionId", "title", "options"] },
) as fc.Arbitrary<RequestPermissionRequest>;

const step = fc.oneof(
  { weight: 5, arbitrary: update.map((u) => ({ update: u })) },
  { weight: 1, arbitrary: permission.map((p) => ({ permission: p })) },
);

describe("the v1 projection sends exact v1", () => {
  it("every projected update and permission request decodes strictly, and the SDK's v1 schemas strip nothing", () => {
    let messages = 0;
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), fc.boolean(), (steps, replaying) => {
        const session = new V1SessionProjection({ session: { notices: {}, compaction: {} } } as never);
        session.replaying = replaying;
        const problems: string[] = [];
        let permissions = 0;
        for (const s of steps) {
          if ("update" in s) {
            const v2 = { sessionId: "s", update: s.update };
            expect(validateUpdateSessionNotification(v2).ok, JSON.stringify(v2)).toBe(true);
            for (const v1 of session.toV1(s.update))
              problems.push(...v1Problems("SessionNotification", { sessionId: "s", update: v1 }));
            messages++;
            continue;
          }
          expect(validateV2Permission(s.permission).ok, JSON.stringify(s.permission)).toBe(true);
          const held = (id: string) => (session.knowsToolCall(id) ? session.toolCallContent(id) : undefined);
          const v1 = permissionRequestToV1(s.permission, `permission-${++permissions}`, held);
          if (v1.announce !== undefined)
            problems.push(
              ...v1Problems("SessionNotification", { sessionId: "s", update: session.announceToolCall(v1.announce) }),
            );
          problems.push(...v1Problems("RequestPermissionRequest", v1.request));
          messages++;
        }
        expect(problems).toEqual([]);
      }),
      { numRuns: 300 },
    );
    expect(messages).toBeGreaterThan(1000);
  });
});
