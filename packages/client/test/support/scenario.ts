/**
 * Runs a turn-model scenario: a script of client prompts, agent responses and agent updates,
 * played in order over the in-memory pair against `connectToAgent`. Every prompt handle and every
 * reported agent-initiated work is iterated from the start, so the run records, per handle, the
 * result it settled with and the updates its iterator yielded.
 */
import { RequestError } from "@acp-kit/protocol/jsonrpc";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { vi } from "vitest";
import { type ClientSession, connectToAgent, type ForegroundWork, type Turn } from "../../src/index.js";
import { deferred, ScriptedAgent } from "./scripted-agent.js";

export type Step =
  /** The client sends a prompt; `name` identifies its handle. */
  | { prompt: string }
  /** The agent answers that prompt with this messageId. */
  | { respond: string; messageId: string }
  /** The agent refuses that prompt with a JSON-RPC error. */
  | { refuse: string; code: number }
  /** The agent sends a session/update. */
  | { update: Record<string, unknown> }
  /** The client calls `session.cancel()`. */
  | { cancel: true }
  /** Lets time pass on the scenario's fake clock (for the fallback timer). */
  | { wait: number };

export type Outcome = { stopReason: string | undefined } | { rejected: number | string } | "pending";

export interface HandleRecord {
  outcome: Outcome;
  /** How many times `done` settled (must be 1). */
  settlements: number;
  tags: string[];
}

export interface RunResult {
  turns: Record<string, HandleRecord>;
  works: (HandleRecord & { id: string; startedBy: string | undefined; messageIds: readonly string[] })[];
  session: ClientSession;
  warnings: string[];
  /** `session/cancel` notifications the agent received. */
  cancels: number;
}

/** Short label of an update: its tag, then the id or state that identifies it. */
export function label(update: SessionUpdate): string {
  const u = update as Record<string, unknown>;
  if (u.sessionUpdate === "state_update") return `state:${String(u.state)}`;
  const id = u.messageId ?? u.toolCallId ?? u.terminalId ?? u.planId;
  return id === undefined ? String(u.sessionUpdate) : `${String(u.sessionUpdate)}:${String(id)}`;
}

function record(handle: Turn | ForegroundWork, into: HandleRecord): void {
  void (async () => {
    for await (const update of handle) into.tags.push(label(update));
  })().catch(() => {});
  handle.done.then(
    (result) => {
      into.settlements++;
      into.outcome = { stopReason: result.stopReason };
    },
    (error: unknown) => {
      into.settlements++;
      const code = (error as { code?: unknown }).code;
      into.outcome = { rejected: typeof code === "number" ? code : String((error as Error).name) };
    },
  );
}

/**
 * The client's timers run on a fake clock that only `wait` steps move, so a scenario plays the
 * same however loaded the machine is; `close()` gives the real timers back.
 */
export async function runScenario(
  steps: readonly Step[],
  options: { userMessageTimeoutMs?: number } = {},
): Promise<RunResult & { close(): Promise<void> }> {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  try {
    return await playScenario(steps, options);
  } catch (error) {
    vi.useRealTimers();
    throw error;
  }
}

async function playScenario(
  steps: readonly Step[],
  options: { userMessageTimeoutMs?: number },
): Promise<RunResult & { close(): Promise<void> }> {
  const answers = new Map<string, ReturnType<typeof deferred<{ messageId: string }>>>();
  const order: string[] = [];
  let received = 0;
  const agent = new ScriptedAgent({
    handlers: {
      "session/new": () => ({ sessionId: "s" }),
      "session/prompt": () => {
        const name = order[received++]!;
        return answers.get(name)!.promise;
      },
    },
  });
  const warnings: string[] = [];
  const client = await connectToAgent(agent.clientTransport, {
    info: { name: "scenario", version: "0" },
    logger: { warn: (msg) => warnings.push(msg) },
    // Long by default: only rows about the missing-echo fallback shorten it.
    turns: { userMessageTimeoutMs: options.userMessageTimeoutMs ?? 10_000 },
  });
  const session = await client.newSession({ cwd: "/w" });
  const turns: Record<string, HandleRecord> = {};
  const works: RunResult["works"] = [];
  session.onForegroundWork((work) => {
    const entry = {
      outcome: "pending" as Outcome,
      settlements: 0,
      tags: [] as string[],
      id: work.id,
      get startedBy() {
        return work.startedBy;
      },
      get messageIds() {
        return work.messageIds;
      },
    };
    works.push(entry);
    record(work, entry);
  });
  for (const step of steps) {
    if ("prompt" in step) {
      order.push(step.prompt);
      answers.set(step.prompt, deferred());
      const entry: HandleRecord = { outcome: "pending", settlements: 0, tags: [] };
      turns[step.prompt] = entry;
      record(session.prompt(step.prompt), entry);
      await agent.next("session/prompt");
    } else if ("respond" in step) {
      answers.get(step.respond)!.resolve({ messageId: step.messageId });
    } else if ("refuse" in step) {
      answers.get(step.refuse)!.reject(new RequestError(step.code, "refused"));
    } else if ("update" in step) {
      await agent.update("s", step.update);
    } else if ("cancel" in step) {
      await session.cancel();
    } else {
      await vi.advanceTimersByTimeAsync(step.wait);
    }
    await agent.settled();
  }
  await agent.settled();
  return {
    turns,
    works,
    session,
    warnings,
    get cancels() {
      return agent.methods().filter((m) => m === "session/cancel").length;
    },
    async close() {
      try {
        await client.close();
        await agent.close();
      } finally {
        vi.useRealTimers();
      }
    },
  };
}

// ---- step builders -------------------------------------------------------------------------------

const text = (t: string) => ({ type: "text", text: t });
export const S = {
  prompt: (name: string): Step => ({ prompt: name }),
  respond: (name: string, messageId: string): Step => ({ respond: name, messageId }),
  refuse: (name: string, code: number): Step => ({ refuse: name, code }),
  user: (messageId: string): Step => ({ update: { sessionUpdate: "user_message", messageId, content: [text("p")] } }),
  running: (background?: unknown[]): Step => ({
    update: { sessionUpdate: "state_update", state: "running", ...(background ? { background } : {}) },
  }),
  requiresAction: (): Step => ({ update: { sessionUpdate: "state_update", state: "requires_action" } }),
  idle: (stopReason?: string, background?: unknown[]): Step => ({
    update: {
      sessionUpdate: "state_update",
      state: "idle",
      ...(stopReason ? { stopReason } : {}),
      ...(background ? { background } : {}),
    },
  }),
  chunk: (messageId: string): Step => ({
    update: { sessionUpdate: "agent_message_chunk", messageId, content: text("x") },
  }),
  tool: (toolCallId: string, status: string): Step => ({
    update: { sessionUpdate: "tool_call_update", toolCallId, title: toolCallId, status },
  }),
  cancel: (): Step => ({ cancel: true }),
  wait: (ms: number): Step => ({ wait: ms }),
};
