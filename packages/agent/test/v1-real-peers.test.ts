/**
 * What real v1 clients saw of our agent (issue: real v1 peers, as they ship), scenario by
 * scenario over the in-memory pair with a scripted v1 client: every message the agent sends is
 * checked strictly against the v1 schema (no value v1 does not list), and the tool calls are
 * folded the way a v1 editor merges them (a permission's `toolCall` updates the call too).
 */
import { RequestError } from "@acp-kit/protocol/jsonrpc";
import { validateRequestPermissionRequest, validateSessionNotification } from "@acp-kit/protocol/v1";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentDefinition, Turn } from "../src/index.js";
import { type ClientOptions, type Started, start, startWithSession, type WireMessage } from "./support/harness.js";

let running: Started | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

const V1_INIT = { protocolVersion: 1, clientInfo: { name: "v1-editor", version: "1" }, clientCapabilities: {} };
const FILE = "/w/src/greeting.ts";
const GREETING_PATCH = `diff --git ${FILE} ${FILE}\n--- ${FILE}\n+++ ${FILE}\n@@ -1 +1 @@\n-old greeting\n+new greeting\n`;

async function v1Session(prompt: AgentDefinition["prompt"], options: ClientOptions = {}) {
  running = start({ prompt }, options);
  await running.client.request("initialize", V1_INIT);
  const { sessionId } = await running.client.request("session/new", { cwd: "/w", mcpServers: [] });
  return { client: running.client, sessionId };
}

/** Every message of the agent that v1 defines, checked strictly: the paths of what fails. */
function v1Violations(wire: readonly WireMessage[]): string[] {
  const out: string[] = [];
  for (const m of wire) {
    const check =
      m.method === "session/update"
        ? validateSessionNotification(m.params)
        : m.method === "session/request_permission"
          ? validateRequestPermissionRequest(m.params)
          : undefined;
    if (check !== undefined && !check.ok) out.push(`${m.method}: ${JSON.stringify(check.error)}`);
  }
  return out;
}

type V1ToolCall = Record<string, unknown> & { toolCallId: string };

/** The tool calls as a v1 editor holds them: every `tool_call`, update and permission `toolCall` merged in order. */
function foldToolCalls(wire: readonly WireMessage[]): Map<string, V1ToolCall> {
  const calls = new Map<string, V1ToolCall>();
  const merge = (fields: V1ToolCall) => {
    const { sessionUpdate: _tag, ...rest } = fields;
    calls.set(fields.toolCallId, { ...calls.get(fields.toolCallId), ...rest } as V1ToolCall);
  };
  for (const m of wire) {
    const update = m.params?.update;
    if (
      m.method === "session/update" &&
      (update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update")
    )
      merge(update);
    if (m.method === "session/request_permission") merge(m.params.toolCall);
  }
  return calls;
}

function plans(wire: readonly WireMessage[]): { content: string; status: string }[][] {
  return wire
    .filter((m) => m.method === "session/update" && m.params.update.sessionUpdate === "plan")
    .map((m) => m.params.update.entries);
}

const reject = () => ({ outcome: { outcome: "selected", optionId: "reject_once" } });
const allow = () => ({ outcome: { outcome: "selected", optionId: "allow_once" } });

async function editWithPermission(turn: Turn): Promise<"end_turn"> {
  const plan = turn.plan([
    { content: "Read", status: "completed" },
    { content: "Edit", status: "in_progress" },
    { content: "Test", status: "pending" },
  ]);
  const edit = turn.toolCall({ title: "Edit src/greeting.ts", kind: "edit" });
  const decision = await edit.requestPermission({
    title: "Allow editing src/greeting.ts?",
    description: `Replace the greeting in ${FILE}`,
  });
  if (!decision.granted) {
    await edit.fail({ content: ["Permission denied"] });
    await plan.set([
      { content: "Read", status: "completed" },
      { content: "Edit", status: "cancelled" },
      { content: "Test", status: "cancelled" },
    ]);
    return "end_turn";
  }
  await edit.start();
  await edit.diff([{ operation: "modify", path: FILE }], { format: "git_patch", text: GREETING_PATCH });
  await edit.complete();
  const terminal = turn.terminal({ command: "npm test" });
  const run = turn.toolCall({
    title: "Run npm test",
    kind: "execute",
    content: [{ type: "terminal", terminalId: terminal.id }],
  });
  await run.start();
  await terminal.write("1 passed\r\n");
  await terminal.write("ok\r\n");
  await terminal.exit({ exitCode: 0 });
  await run.complete();
  return "end_turn";
}

describe("our agent seen by a v1 client", () => {
  it("a tool call of a cancelled turn ends `failed` (v1 has no `cancelled`), nothing on the wire v1 does not list", async () => {
    const { client, sessionId } = await v1Session(async (turn) => {
      const call = turn.toolCall({ title: "Long job", kind: "execute" });
      await call.start();
      await new Promise<void>((resolve) => turn.signal.addEventListener("abort", () => resolve(), { once: true }));
      return "end_turn";
    });
    const answer = client.prompt(sessionId, "go");
    await client.waitUntil(() => client.updates(sessionId).some((u) => u.status === "in_progress"));
    await client.cancel(sessionId);
    expect(await answer).toEqual({ stopReason: "cancelled" });
    expect(v1Violations(client.wire)).toEqual([]);
    expect([...foldToolCalls(client.wire).values()].map((c) => [c.title, c.status])).toEqual([["Long job", "failed"]]);
  });

  it("a rejected permission: the plan keeps every entry, the cancelled ones `pending`; the call keeps its title", async () => {
    const { client, sessionId } = await v1Session(editWithPermission, { onPermission: reject });
    expect(await client.prompt(sessionId, "go")).toEqual({ stopReason: "end_turn" });
    expect(v1Violations(client.wire)).toEqual([]);
    expect(plans(client.wire).at(-1)).toEqual([
      { content: "Read", priority: "medium", status: "completed" },
      { content: "Edit", priority: "medium", status: "pending" },
      { content: "Test", priority: "medium", status: "pending" },
    ]);
    const [edit] = [...foldToolCalls(client.wire).values()];
    expect(edit).toMatchObject({ title: "Edit src/greeting.ts", status: "failed" });
    expect(edit?.content).toEqual([{ type: "content", content: { type: "text", text: "Permission denied" } }]);
  });

  it("the permission shows its question and description in the call while asked, without renaming it; then the call is its own again", async () => {
    const { client, sessionId } = await v1Session(editWithPermission, { onPermission: allow });
    await client.prompt(sessionId, "go");
    expect(v1Violations(client.wire)).toEqual([]);
    const asked = client.wire.find((m) => m.method === "session/request_permission");
    expect(asked?.params.toolCall.title).toBeUndefined();
    expect(asked?.params.toolCall.content).toEqual([
      {
        type: "content",
        content: { type: "text", text: `Allow editing src/greeting.ts?\n\nReplace the greeting in ${FILE}` },
      },
    ]);
    const askedAt = client.wire.indexOf(asked as WireMessage);
    const restored = client.wire.slice(askedAt + 1).find((m) => m.method === "session/update");
    expect(restored?.params.update).toEqual({
      sessionUpdate: "tool_call_update",
      toolCallId: asked?.params.toolCall.toolCallId,
      content: [],
    });
    expect(foldToolCalls(client.wire).get(asked?.params.toolCall.toolCallId)?.title).toBe("Edit src/greeting.ts");
  });

  it("fields the permission's tool call brings stay the call's once the question is taken back", async () => {
    const { client, sessionId } = await v1Session(
      async (turn) => {
        const call = turn.toolCall({ title: "Delete tmp", kind: "delete" });
        await call.requestPermission({
          title: "Allow deleting tmp?",
          patch: { content: ["rm -r tmp"], status: "pending" },
        });
        return "end_turn";
      },
      { onPermission: allow },
    );
    await client.prompt(sessionId, "go");
    expect(v1Violations(client.wire)).toEqual([]);
    const [call] = [...foldToolCalls(client.wire).values()];
    expect(call).toMatchObject({ title: "Delete tmp", kind: "delete" });
    expect(call?.content).toEqual([{ type: "content", content: { type: "text", text: "rm -r tmp" } }]);
  });

  it("an edit reaches the client as a v1 diff, a terminal's output as text", async () => {
    const { client, sessionId } = await v1Session(editWithPermission, { onPermission: allow });
    await client.prompt(sessionId, "go");
    expect(v1Violations(client.wire)).toEqual([]);
    const [edit, run] = [...foldToolCalls(client.wire).values()];
    expect(edit?.content).toEqual([{ type: "diff", path: FILE, oldText: "old greeting\n", newText: "new greeting\n" }]);
    expect(run).toMatchObject({ title: "Run npm test", status: "completed" });
    expect(run?.content).toEqual([{ type: "content", content: { type: "text", text: "1 passed\r\nok\r\n" } }]);
  });

  it.each([
    ["-32601", RequestError.methodNotFound("session/request_permission")],
    ["-32603 with data", RequestError.internalError("UI crashed", { where: "dialog" })],
  ])(
    "a client's %s answering session/request_permission ends the prompt with an error naming that request",
    async (_name, thrown) => {
      const { client, sessionId } = await v1Session(editWithPermission, {
        onPermission: () => {
          throw thrown;
        },
      });
      const error = await client.prompt(sessionId, "go").catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: -32603,
        message: `The client answered session/request_permission with error ${thrown.code}: ${thrown.message}`,
        data: { method: "session/request_permission", error: thrown.toErrorObject() },
      });
      expect(v1Violations(client.wire)).toEqual([]);
    },
  );

  it("a client's huge error is clipped: its message cut, its data left out", async () => {
    const { client, sessionId } = await v1Session(editWithPermission, {
      onPermission: () => {
        throw new RequestError(-32000, "m".repeat(100_000), { blob: "d".repeat(100_000) });
      },
    });
    const error = (await client.prompt(sessionId, "go").catch((e: unknown) => e)) as {
      message: string;
      data: { error: Record<string, unknown> };
    };
    expect(error.message.length).toBeLessThan(1200);
    expect(error.data.error).toEqual({ code: -32000, message: expect.stringContaining("(100000 characters)") });
  });

  it("the v2 path follows the same rule: the idle's error names the request, the client's error in its data", async () => {
    const thrown = RequestError.methodNotFound("session/request_permission");
    running = await startWithSession(
      { prompt: editWithPermission },
      {
        onPermission: () => {
          throw thrown;
        },
      },
    );
    const { client, sessionId } = running as Started & { sessionId: string };
    await client.prompt(sessionId, "go");
    await client.waitForIdles(1, sessionId);
    expect(client.idles(sessionId)[0]).toMatchObject({
      stopReason: "error",
      error: {
        code: -32603,
        message:
          "The client answered session/request_permission with error -32601: Method not found: session/request_permission",
        data: { method: "session/request_permission", error: thrown.toErrorObject() },
      },
    });
  });
});
