// The agent half of the turn model (docs/turn-model.md): background work, closeSession ordering,
// engine-enforced ids, and the error object of an `error` idle.
import { createInMemoryTransportPair } from "@acp-kit/protocol/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import {
  type AgentDefinition,
  defineAgent,
  type IdGenerator,
  InMemorySessionStore,
  type TerminalBuilder,
  type ToolCallBuilder,
} from "../src/index.js";
import { gate, ScriptedClient, type Started, startWithSession } from "./support/harness.js";

let running: Started | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

/** Tags of what the client received, with state and background for state updates. */
function trace(client: ScriptedClient): string[] {
  return client.updates().map((u) => {
    if (u.sessionUpdate !== "state_update") return `${u.sessionUpdate}${u.status ? `:${u.status}` : ""}`;
    const bg = u.background === undefined ? "" : ` bg=[${u.background.map((b: any) => b.toolCallId ?? b.terminalId)}]`;
    return `state:${u.state}${bg}`;
  });
}

describe('defect 8: a handler returning "error"', () => {
  it("sends an idle carrying an error object", async () => {
    const s = (running = await startWithSession({ prompt: async () => "error" }));
    await s.client.prompt(s.sessionId, "x");
    await s.client.waitForIdles(1);
    expect(s.client.idles()[0]).toEqual({
      sessionUpdate: "state_update",
      state: "idle",
      stopReason: "error",
      error: { code: -32603, message: "The prompt handler ended the turn with an error" },
    });
  });
});

describe("defect 5: ids the engine refuses to reuse", () => {
  it("a generator repeating a message id: the second prompt is refused with -32603 and nothing is sent for it", async () => {
    const ids: IdGenerator = (kind) => (kind === "session" ? "sess_1" : `${kind}_same`);
    const s = (running = await startWithSession({ ids, prompt: async () => {} }));
    const first = await s.client.prompt(s.sessionId, "one");
    await s.client.waitForIdles(1);
    const before = s.client.updates().length;
    await expect(s.client.prompt(s.sessionId, "two")).rejects.toMatchObject({ code: -32603 });
    await s.settled();
    expect(first.messageId).toBe("user_message_same");
    expect(s.client.updates().length).toBe(before);
  });

  it("a toolCallId reused for a new tool call in a later turn throws locally; updates by id still work", async () => {
    const errors: unknown[] = [];
    const s = (running = await startWithSession({
      prompt: async (turn) => {
        const call = turn.toolCall({ title: "Read", toolCallId: "call_fixed" });
        await call.complete(); // an update by id: normal
        if (turn.text === "again") {
          try {
            turn.toolCall({ title: "Read again", toolCallId: "call_fixed" });
          } catch (error) {
            errors.push(error);
          }
        }
      },
    }));
    await s.client.prompt(s.sessionId, "first");
    await s.client.waitForIdles(1);
    const before = s.client.updates().filter((u) => u.sessionUpdate === "tool_call_update").length;
    await s.client.prompt(s.sessionId, "again");
    await s.client.waitForIdles(2);
    // The second turn's own first call already reuses the id: it is refused before anything is sent.
    expect(s.client.updates().filter((u) => u.sessionUpdate === "tool_call_update").length).toBe(before);
    expect(s.client.idles()[1]).toMatchObject({ stopReason: "error" });
    expect(errors).toEqual([]);
  });

  it("a reused terminalId throws DuplicateIdError and sends nothing", async () => {
    const caught: unknown[] = [];
    const s = (running = await startWithSession({
      prompt: async (turn) => {
        const t = turn.terminal({ terminalId: "term_fixed" });
        await t.exit({ exitCode: 0 });
        try {
          turn.terminal({ terminalId: "term_fixed" });
        } catch (error) {
          caught.push(error);
        }
      },
    }));
    await s.client.prompt(s.sessionId, "x");
    await s.client.waitForIdles(1);
    expect(caught).toHaveLength(1);
    expect((caught[0] as Error).name).toBe("DuplicateIdError");
    expect(s.client.updates().filter((u) => u.sessionUpdate === "terminal_update")).toHaveLength(2);
  });

  it("generated ids stay unique across resume, even from a counter that restarts", async () => {
    const store = new InMemorySessionStore();
    const counter = (): IdGenerator => {
      let n = 0;
      return (kind) => (kind === "session" ? "sess_r" : `${kind}_${++n}`);
    };
    const prompt: AgentDefinition["prompt"] = async (turn) => {
      await turn.say("reply");
      await turn.toolCall({ title: "t" }).complete();
    };
    const serve = (ids: IdGenerator) => {
      const [agentSide, clientSide] = createInMemoryTransportPair();
      const agent = defineAgent({ info: { name: "a", version: "1" }, sessionStore: store, ids, prompt }).serve(
        agentSide,
      );
      return { agent, client: new ScriptedClient(clientSide) };
    };
    const one = serve(counter());
    await one.client.initialize();
    const sessionId = await one.client.newSession("/w");
    const a = await one.client.prompt(sessionId, "first");
    await one.client.waitForIdles(1);
    const firstIds = one.client.updates().flatMap((u) => [u.messageId, u.toolCallId].filter(Boolean));
    await one.client.close();
    await one.agent.closed;

    const two = serve(counter()); // a new process: the counter starts at 1 again
    await two.client.initialize();
    await two.client.request("session/resume", { sessionId, cwd: "/w" });
    const b = await two.client.prompt(sessionId, "second");
    await two.client.waitForIdles(1);
    const secondIds = two.client
      .updates()
      .filter((u) => u.sessionUpdate !== "state_update")
      .flatMap((u) => [u.messageId, u.toolCallId].filter(Boolean));
    expect(b.messageId).not.toBe(a.messageId);
    for (const id of new Set(secondIds)) expect(firstIds).not.toContain(id);
    await two.client.close();
    await two.agent.closed;
  });
});

describe("background work", () => {
  it("a detached tool call outlives its turn: listed on every state_update, final status before the snapshot that drops it, untouched by cancel", async () => {
    let detached: ToolCallBuilder | undefined;
    const s = (running = await startWithSession({
      prompt: async (turn) => {
        if (turn.text === "watch") {
          detached = turn.toolCall({ title: "Watch files", kind: "execute" });
          await detached.start();
          detached.detach();
          return "end_turn";
        }
        await new Promise<void>((resolve) => turn.signal.addEventListener("abort", () => resolve()));
      },
    }));
    await s.client.prompt(s.sessionId, "watch");
    await s.client.waitForIdles(1);
    await s.client.prompt(s.sessionId, "wait");
    await s.client.waitUntil(() => s.client.states().length >= 4);
    await s.client.cancel(s.sessionId);
    await s.client.waitForIdles(2);
    await detached!.complete({ content: ["no more changes"] });
    await s.settled();
    const id = detached!.id;
    expect(trace(s.client)).toEqual([
      "state:running",
      "user_message",
      "tool_call_update:pending",
      "tool_call_update:in_progress",
      `state:running bg=[${id}]`,
      `state:idle bg=[${id}]`,
      `state:running bg=[${id}]`,
      "user_message",
      `state:idle bg=[${id}]`,
      "tool_call_update:completed",
      "state:idle bg=[]",
    ]);
    expect(s.client.idles().map((u) => u.stopReason)).toEqual(["end_turn", "cancelled", undefined]);
  });

  it("a detached terminal is dropped from the list after its exitStatus; the resume snapshot lists what runs", async () => {
    let terminal: TerminalBuilder | undefined;
    const s = (running = await startWithSession({
      prompt: async (turn) => {
        terminal = turn.terminal({ command: "npm run watch" });
        terminal.detach();
      },
    }));
    await s.client.prompt(s.sessionId, "go");
    await s.client.waitForIdles(1);
    await s.client.request("session/resume", { sessionId: s.sessionId, cwd: "/work/project" });
    await terminal!.write("rebuilt\n");
    await terminal!.exit({ exitCode: 0 });
    await s.settled();
    const id = terminal!.id;
    expect(trace(s.client)).toEqual([
      "state:running",
      "user_message",
      "terminal_update",
      `state:running bg=[${id}]`,
      `state:idle bg=[${id}]`,
      `state:idle bg=[${id}]`, // the resume snapshot
      "terminal_output_chunk",
      "terminal_update",
      "state:idle bg=[]",
    ]);
  });

  it("defect 6: the closeSession hook can still finalize a background tool call; a live one is reported cancelled", async () => {
    const calls: ToolCallBuilder[] = [];
    const hookErrors: unknown[] = [];
    const s = (running = await startWithSession({
      prompt: async (turn) => {
        for (const title of ["Index", "Watch"]) {
          const call = turn.toolCall({ title });
          await call.start();
          call.detach();
          calls.push(call);
        }
      },
      closeSession: async () => {
        try {
          await calls[0]!.complete({ content: ["indexed"] });
        } catch (error) {
          hookErrors.push(error);
        }
      },
    }));
    await s.client.prompt(s.sessionId, "go");
    await s.client.waitForIdles(1);
    await s.client.request("session/close", { sessionId: s.sessionId });
    await s.settled();
    expect(hookErrors).toEqual([]);
    const finals = s.client
      .updates()
      .filter((u) => u.sessionUpdate === "tool_call_update" && u.status !== "pending" && u.status !== "in_progress")
      .map((u) => [u.toolCallId, u.status]);
    expect(finals).toEqual([
      [calls[0]!.id, "completed"],
      [calls[1]!.id, "cancelled"],
    ]);
  });

  it("defect 6: a session-level tool call finalized in closeSession reaches the client", async () => {
    let call: ToolCallBuilder | undefined;
    const hookErrors: string[] = [];
    const s = (running = await startWithSession({
      prompt: async (turn) => {
        call = turn.session.toolCall({ title: "Sync in the background" });
      },
      closeSession: async () => {
        try {
          await call!.complete();
        } catch (error) {
          hookErrors.push((error as Error).name);
        }
      },
    }));
    await s.client.prompt(s.sessionId, "go");
    await s.client.waitForIdles(1);
    await s.client.request("session/close", { sessionId: s.sessionId });
    await s.settled();
    expect(hookErrors).toEqual([]);
    expect(
      s.client
        .updates()
        .filter((u) => u.toolCallId === call!.id)
        .map((u) => u.status),
    ).toEqual(["pending", "completed"]);
  });

  it("detaching after the turn ended or once final is refused", async () => {
    const open = gate();
    let late: ToolCallBuilder | undefined;
    const problems: string[] = [];
    const s = (running = await startWithSession({
      prompt: async (turn) => {
        const done = turn.toolCall({ title: "done" });
        await done.complete();
        try {
          done.detach();
        } catch (error) {
          problems.push((error as Error).name);
        }
        late = turn.toolCall({ title: "late" });
        void open.promise.then(() => {
          try {
            late!.detach();
          } catch (error) {
            problems.push((error as Error).name);
          }
        });
      },
    }));
    await s.client.prompt(s.sessionId, "go");
    await s.client.waitForIdles(1);
    open.open();
    await s.settled();
    expect(problems).toEqual(["TypeError", "TypeError"]);
  });
});
