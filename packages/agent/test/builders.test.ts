import { ConnectionError } from "@acp-kit/protocol/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import type { Turn } from "../src/index.js";
import { gate, type Started, startWithSession } from "./support/harness.js";

let running: Started | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

/** Runs `body` as a prompt turn and returns the updates it produced (between running and idle). */
async function turnUpdates(
  body: (turn: Turn) => unknown,
  options: Parameters<typeof startWithSession>[0] = { prompt: async () => {} },
): Promise<any[]> {
  const s = (running = await startWithSession({ ...options, prompt: async (turn) => void (await body(turn)) }));
  await s.client.prompt(s.sessionId, "go");
  await s.client.waitForIdles(1);
  const updates = s.client.updates(s.sessionId);
  return updates.slice(2, -1); // drop running, user_message and idle
}

describe("messages and thoughts", () => {
  it("streams chunks and replaces content under one message id", async () => {
    const updates = await turnUpdates(async (turn) => {
      const m = turn.message();
      await m.append("Hel");
      await m.append({ type: "text", text: "lo" });
      await m.set(["Hello!"]);
      await m.meta({ model: "x" });
    });
    const ids = new Set(updates.map((u) => u.messageId));
    expect(ids.size).toBe(1);
    expect(updates).toEqual([
      { sessionUpdate: "agent_message_chunk", messageId: expect.any(String), content: { type: "text", text: "Hel" } },
      { sessionUpdate: "agent_message_chunk", messageId: expect.any(String), content: { type: "text", text: "lo" } },
      { sessionUpdate: "agent_message", messageId: expect.any(String), content: [{ type: "text", text: "Hello!" }] },
      { sessionUpdate: "agent_message", messageId: expect.any(String), _meta: { model: "x" } },
    ]);
  });

  it("gives each message and thought its own id", async () => {
    const updates = await turnUpdates(async (turn) => {
      turn.thought("thinking");
      await turn.say("one");
      await turn.say("two");
    });
    expect(updates.map((u) => u.sessionUpdate)).toEqual(["agent_thought", "agent_message", "agent_message"]);
    expect(new Set(updates.map((u) => u.messageId)).size).toBe(3);
  });

  it("pipes an async iterable as chunks, skipping empty strings", async () => {
    async function* tokens() {
      yield "a";
      yield "";
      yield "b";
    }
    const updates = await turnUpdates((turn) => turn.stream(tokens()));
    expect(updates.map((u) => u.content.text)).toEqual(["a", "b"]);
  });

  it("clears content with null", async () => {
    const updates = await turnUpdates((turn) => turn.message().set(null));
    expect(updates[0]).toMatchObject({ sessionUpdate: "agent_message", content: null });
  });
});

describe("tool calls", () => {
  it("creates with title, kind and pending status, then patches with omit/null/value semantics", async () => {
    const updates = await turnUpdates(async (turn) => {
      const call = turn.toolCall({
        title: "Read file",
        kind: "read",
        rawInput: { path: "/w/a" },
        locations: [{ path: "/w/a", line: 3 }],
      });
      await call.start();
      await call.update({ title: null, rawOutput: { bytes: 3 } });
      await call.appendContent("partial output");
      await call.diff([{ operation: "modify", path: "/w/a" } as never], {
        format: "git_patch",
        text: "diff --git /w/a /w/a\n",
      });
      await call.complete({ content: ["done"] });
    });
    const [create, start, patch, chunk, diff, complete] = updates;
    expect(create).toEqual({
      sessionUpdate: "tool_call_update",
      toolCallId: expect.stringMatching(/^call_/),
      title: "Read file",
      kind: "read",
      status: "pending",
      rawInput: { path: "/w/a" },
      locations: [{ path: "/w/a", line: 3 }],
    });
    expect(start).toEqual({ sessionUpdate: "tool_call_update", toolCallId: create.toolCallId, status: "in_progress" });
    expect(patch).toEqual({
      sessionUpdate: "tool_call_update",
      toolCallId: create.toolCallId,
      title: null,
      rawOutput: { bytes: 3 },
    });
    expect(chunk).toEqual({
      sessionUpdate: "tool_call_content_chunk",
      toolCallId: create.toolCallId,
      content: { type: "content", content: { type: "text", text: "partial output" } },
    });
    expect(diff.content).toEqual({
      type: "diff",
      changes: [{ operation: "modify", path: "/w/a" }],
      patch: { format: "git_patch", text: "diff --git /w/a /w/a\n" },
    });
    expect(complete).toEqual({
      sessionUpdate: "tool_call_update",
      toolCallId: create.toolCallId,
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: "done" } }],
    });
  });

  it("marks unfinished tool calls failed when the turn errors", async () => {
    const s = (running = await startWithSession({
      prompt: async (turn) => {
        turn.toolCall({ title: "x" });
        throw new Error("boom");
      },
    }));
    await s.client.prompt(s.sessionId, "x");
    await s.client.waitForIdles(1);
    const updates = s.client.updates();
    expect(updates.at(-2)).toMatchObject({ sessionUpdate: "tool_call_update", status: "failed" });
  });

  it("closes a tool call the handler left unfinished as failed, and logs it", async () => {
    const warnings: string[] = [];
    const s = (running = await startWithSession({
      logger: { warn: (message) => void warnings.push(message) },
      prompt: async (turn) => {
        await turn.toolCall({ title: "forgotten" }).start();
      },
    }));
    await s.client.prompt(s.sessionId, "x");
    await s.client.waitForIdles(1);
    const updates = s.client.updates();
    expect(updates.at(-2)).toMatchObject({ sessionUpdate: "tool_call_update", status: "failed" });
    expect(updates.at(-1)).toMatchObject({ state: "idle", stopReason: "end_turn" });
    expect(warnings).toEqual([expect.stringContaining("not final")]);
  });

  it("advertises capabilities.cancel while cancellable, runs onCancel on tool_call/cancel, and withdraws it when final", async () => {
    const finished = gate();
    const s = (running = await startWithSession({
      prompt: async (turn) => {
        const call = turn.toolCall({
          title: "long build",
          kind: "execute",
          onCancel: async () => {
            await call.cancelled();
            finished.open();
          },
        });
        await call.start();
        await finished.promise;
      },
    }));
    await s.client.prompt(s.sessionId, "x");
    await s.client.waitUntil(
      () => s.client.updates().filter((u) => u.sessionUpdate === "tool_call_update").length === 2,
    );
    const [create] = s.client.updates().filter((u) => u.sessionUpdate === "tool_call_update");
    expect(create.capabilities).toEqual({ cancel: {} });
    expect(
      await s.client.request("tool_call/cancel", { sessionId: s.sessionId, toolCallId: create.toolCallId }),
    ).toEqual({});
    await s.client.waitForIdles(1);
    const final = s.client.updates().filter((u) => u.status === "cancelled");
    expect(final).toEqual([
      { sessionUpdate: "tool_call_update", toolCallId: create.toolCallId, status: "cancelled", capabilities: null },
    ]);
    await expect(
      s.client.request("tool_call/cancel", { sessionId: s.sessionId, toolCallId: create.toolCallId }),
    ).rejects.toMatchObject({ code: -32602 });
    expect(s.client.idles()[0].stopReason).toBe("end_turn");
  });

  it("refuses tool_call/cancel for unknown or non-cancellable calls with -32602, and unknown sessions with -32002", async () => {
    let id = "";
    const s = (running = await startWithSession({
      prompt: async (turn) => void (id = turn.toolCall({ title: "plain" }).id),
    }));
    await s.client.prompt(s.sessionId, "x");
    await s.client.waitForIdles(1);
    await expect(
      s.client.request("tool_call/cancel", { sessionId: s.sessionId, toolCallId: id }),
    ).rejects.toMatchObject({ code: -32602 });
    await expect(
      s.client.request("tool_call/cancel", { sessionId: s.sessionId, toolCallId: "nope" }),
    ).rejects.toMatchObject({ code: -32602 });
    await expect(s.client.request("tool_call/cancel", { sessionId: "nope", toolCallId: id })).rejects.toMatchObject({
      code: -32002,
    });
  });
});

describe("terminals", () => {
  it("streams base64 output of bytes and strings, resizes and exits", async () => {
    const updates = await turnUpdates(async (turn) => {
      const t = turn.terminal({ command: "npm test", cwd: "/w", size: { cols: 80, rows: 24 } });
      await t.write("héllo\n");
      await t.write(new Uint8Array([0x1b, 0x5b, 0x30, 0x6d]));
      await t.resize({ cols: 100, rows: 30 });
      await t.exit({ exitCode: 1 });
    });
    expect(updates[0]).toEqual({
      sessionUpdate: "terminal_update",
      terminalId: expect.stringMatching(/^term_/),
      command: "npm test",
      cwd: "/w",
      size: { cols: 80, rows: 24 },
    });
    expect(Buffer.from(updates[1].data, "base64").toString("utf8")).toBe("héllo\n");
    expect([...Buffer.from(updates[2].data, "base64")]).toEqual([0x1b, 0x5b, 0x30, 0x6d]);
    expect(updates[3]).toMatchObject({ size: { cols: 100, rows: 30 } });
    expect(updates[4]).toMatchObject({ exitStatus: { exitCode: 1 } });
  });

  it("withdraws a running terminal's cancel capability when its turn ends", async () => {
    const s = (running = await startWithSession({
      prompt: async (turn) => {
        turn.terminal({ command: "tail -f log", onCancel: () => {} });
      },
    }));
    await s.client.prompt(s.sessionId, "x");
    await s.client.waitForIdles(1);
    const terminalUpdates = s.client.updates().filter((u) => u.sessionUpdate === "terminal_update");
    expect(terminalUpdates.map((u) => u.capabilities)).toEqual([{ cancel: {} }, null]);
    await expect(
      s.client.request("terminal/cancel", { sessionId: s.sessionId, terminalId: terminalUpdates[0].terminalId }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it("accepts terminal/cancel only while cancellable and running", async () => {
    const exited = gate();
    const s = (running = await startWithSession({
      prompt: async (turn) => {
        const t = turn.terminal({
          command: "sleep 100",
          onCancel: async () => {
            await t.exit({ signal: "SIGTERM" });
            exited.open();
          },
        });
        await exited.promise;
      },
    }));
    await s.client.prompt(s.sessionId, "x");
    await s.client.waitUntil(() => s.client.updates().some((u) => u.sessionUpdate === "terminal_update"));
    const created = s.client.updates().find((u) => u.sessionUpdate === "terminal_update");
    expect(created.capabilities).toEqual({ cancel: {} });
    expect(
      await s.client.request("terminal/cancel", { sessionId: s.sessionId, terminalId: created.terminalId }),
    ).toEqual({});
    await s.client.waitForIdles(1);
    expect(s.client.updates().filter((u) => u.exitStatus)).toEqual([
      {
        sessionUpdate: "terminal_update",
        terminalId: created.terminalId,
        exitStatus: { signal: "SIGTERM" },
        capabilities: null,
      },
    ]);
    await expect(
      s.client.request("terminal/cancel", { sessionId: s.sessionId, terminalId: created.terminalId }),
    ).rejects.toMatchObject({ code: -32602 });
  });
});

describe("plans, usage, notices and raw updates", () => {
  it("sends plans with a stable planId and full entry lists", async () => {
    const updates = await turnUpdates(async (turn) => {
      const plan = turn.plan(["read", { content: "fix", priority: "high" }]);
      await plan.setStatus(0, "completed");
    });
    expect(updates[0].plan).toEqual({
      type: "items",
      planId: expect.stringMatching(/^plan_/),
      entries: [
        { content: "read", priority: "medium", status: "pending" },
        { content: "fix", priority: "high", status: "pending" },
      ],
    });
    expect(updates[1].plan.planId).toBe(updates[0].plan.planId);
    expect(updates[1].plan.entries[0].status).toBe("completed");
  });

  it("sends usage and notices", async () => {
    const updates = await turnUpdates(async (turn) => {
      await turn.usage({ used: 100, size: 1000, cost: { amount: 0.01, currency: "USD" } });
      await turn.notice({ severity: "warning", title: "Rate limited, retrying" });
    });
    expect(updates).toEqual([
      { sessionUpdate: "usage_update", used: 100, size: 1000, cost: { amount: 0.01, currency: "USD" } },
      { sessionUpdate: "notice", severity: "warning", title: "Rate limited, retrying" },
    ]);
  });

  it("passes _vendor updates through turn.emit and refuses state_update", async () => {
    const refused = gate<unknown>();
    const updates = await turnUpdates(async (turn) => {
      await turn.emit({ sessionUpdate: "_vendor_progress", percent: 50 } as never);
      try {
        await turn.emit({ sessionUpdate: "state_update", state: "idle" } as never);
      } catch (error) {
        refused.open(error);
      }
    });
    expect(updates).toEqual([{ sessionUpdate: "_vendor_progress", percent: 50 }]);
    expect(await refused.promise).toBeInstanceOf(TypeError);
  });
});

describe("outgoing validation", () => {
  it("throws a local error naming the field and sends nothing", async () => {
    const failure = gate<unknown>();
    const updates = await turnUpdates(async (turn) => {
      try {
        await turn.usage({ used: -5, size: 10 });
      } catch (error) {
        failure.open(error);
      }
      try {
        turn.toolCall({ title: "x", status: 42 as never });
      } catch (error) {
        failure.open(error);
      }
    });
    const error = await failure.promise;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ kind: "invalid_outgoing", details: { path: "/update/used" } });
    expect(updates).toEqual([]);
  });

  it("refuses an invalid permission request before sending it", async () => {
    const failure = gate<unknown>();
    const s = (running = await startWithSession({
      prompt: async (turn) => {
        await turn.requestPermission({ title: "x", options: [] }).catch((e: unknown) => failure.open(e));
      },
    }));
    await s.client.prompt(s.sessionId, "x");
    const error = await failure.promise;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ kind: "invalid_outgoing", details: { path: "/options" } });
    await s.client.waitForIdles(1);
    expect(s.client.wire.some((m) => m.method === "session/request_permission")).toBe(false);
    expect(s.client.states().map((u) => u.state)).toEqual(["running", "idle"]);
  });

  it("refuses permission options with duplicate ids", async () => {
    const failure = gate<unknown>();
    const s = (running = await startWithSession({
      prompt: async (turn) => {
        const options = [
          { optionId: "a", name: "A", kind: "allow_once" as const },
          { optionId: "a", name: "B", kind: "reject_once" as const },
        ];
        await turn.requestPermission({ title: "x", options }).catch((e: unknown) => failure.open(e));
      },
    }));
    await s.client.prompt(s.sessionId, "x");
    expect(await failure.promise).toBeInstanceOf(TypeError);
    await s.client.waitForIdles(1);
    expect(s.client.wire.some((m) => m.method === "session/request_permission")).toBe(false);
  });

  it("ends the turn with error when the handler lets an invalid-message error escape", async () => {
    const s = (running = await startWithSession({ prompt: (turn) => turn.usage({ used: 1.5, size: 2 }) }));
    await s.client.prompt(s.sessionId, "x");
    await s.client.waitForIdles(1);
    expect(s.client.idles()[0]).toMatchObject({ stopReason: "error", error: { code: -32603 } });
    expect(s.client.updates().some((u) => u.sessionUpdate === "usage_update")).toBe(false);
  });
});
