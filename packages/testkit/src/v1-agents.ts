/**
 * Scripts for the scripted agent that speak ACP v1 as the agents that ship do: `initialize`
 * answers protocol version 1, a prompt is answered `{ stopReason }` when its work ends, chunks
 * carry no message id. `V1_ORDERINGS` are the update orderings real v1 agents were seen to send
 * (a command list in the middle of a reply, an empty chunk before a permission request, ...),
 * for tests of a client's message boundaries.
 */
import type { AgentScript, AgentStep } from "./scenario.js";

/** A v1 `initialize` answer: no optional capability, no auth method. */
export const V1_INITIALIZE = {
  protocolVersion: 1,
  agentInfo: { name: "scripted-v1-agent", version: "1.0.0" },
  agentCapabilities: {},
  authMethods: [],
} as const;

/** A v1 script: `initialize` answered with `V1_INITIALIZE` merged with `initialize`. */
export function v1Script(
  script: Omit<AgentScript, "initialize"> & { initialize?: Record<string, unknown> },
): AgentScript {
  return { ...script, initialize: { ...V1_INITIALIZE, ...script.initialize } };
}

/** The v1 lifecycle around `body`: the body, then the prompt answered `answer` (default `end_turn`). */
export function v1Turn(
  body: AgentStep[] = [],
  answer: Record<string, unknown> = { stopReason: "end_turn" },
): AgentStep[] {
  return [...body, { respond: answer }];
}

export type V1ChunkKind = "agent_message_chunk" | "agent_thought_chunk" | "user_message_chunk";

/** A v1 chunk of `kind` (no message id, as v1 agents send them). */
export function v1Chunk(text: string, kind: V1ChunkKind = "agent_message_chunk"): AgentStep {
  return { update: { sessionUpdate: kind, content: { type: "text", text } } };
}

/** The two options v1 agents offer most. */
export const V1_PERMISSION_OPTIONS = [
  { optionId: "allow", name: "Allow", kind: "allow_once" },
  { optionId: "reject", name: "Reject", kind: "reject_once" },
] as const;

/** A v1 `session/request_permission` for tool call `toolCallId`, waited for. */
export function v1Permission(toolCallId: string, title: string): AgentStep {
  return {
    request: "session/request_permission",
    params: { sessionId: "$sessionId", toolCall: { toolCallId, title }, options: V1_PERMISSION_OPTIONS },
  };
}

/** Session-level v1 updates: they change what the session shows, not its history. */
export const V1_SESSION_UPDATES: Readonly<Record<string, Record<string, unknown>>> = {
  available_commands_update: {
    sessionUpdate: "available_commands_update",
    availableCommands: [{ name: "init", description: "Set the project up" }],
  },
  current_mode_update: { sessionUpdate: "current_mode_update", currentModeId: "default" },
  config_option_update: { sessionUpdate: "config_option_update", configOptions: [] },
  session_info_update: { sessionUpdate: "session_info_update", title: "A session" },
  usage_update: { sessionUpdate: "usage_update", used: 10, size: 1000 },
};

export interface V1Ordering {
  /** What the ordering is, and which agent was seen to send it. */
  readonly name: string;
  /** The prompt's steps (a `v1Turn`). */
  readonly steps: AgentStep[];
  /**
   * The history a client shows for it, in order: `agent: <text>` / `thought: <text>` for each
   * message (empty messages left out), `tool: <id>` for each tool call.
   */
  readonly timeline: string[];
}

const toolCall = (toolCallId: string, title: string, status = "pending"): AgentStep => ({
  update: { sessionUpdate: "tool_call", toolCallId, title, status },
});
const toolDone = (toolCallId: string, status: string): AgentStep => ({
  update: { sessionUpdate: "tool_call_update", toolCallId, status },
});

/** Orderings of real v1 agents, each with the history a client must show for it. */
export const V1_ORDERINGS: readonly V1Ordering[] = [
  {
    name: "a reply streamed in chunks is one message",
    steps: v1Turn([v1Chunk("Hello from "), v1Chunk("the mock model.")]),
    timeline: ["agent: Hello from the mock model."],
  },
  {
    name: "qwen-code: available_commands_update in the middle of a reply",
    steps: v1Turn([
      v1Chunk("Hello from "),
      { update: V1_SESSION_UPDATES.available_commands_update! },
      v1Chunk("the mock model. "),
    ]),
    timeline: ["agent: Hello from the mock model. "],
  },
  {
    name: "every session-level update between chunks keeps the message whole",
    steps: v1Turn([v1Chunk("a"), ...Object.values(V1_SESSION_UPDATES).flatMap((update) => [{ update }, v1Chunk("b")])]),
    timeline: ["agent: abbbbb"],
  },
  {
    name: "qwen-code: an empty chunk, a permission request (rejected), then the reply",
    steps: v1Turn([
      v1Chunk(""),
      v1Permission("t1", "Edit greeting.ts"),
      v1Chunk("The tool ran. "),
      v1Chunk("Done."),
      toolDone("t1", "failed"),
    ]),
    timeline: ["tool: t1", "agent: The tool ran. Done."],
  },
  {
    name: "text, a tool call, more text: two messages around the tool call",
    steps: v1Turn([
      v1Chunk("Let me look. "),
      toolCall("t1", "Read"),
      toolDone("t1", "completed"),
      v1Chunk("Found it."),
    ]),
    timeline: ["agent: Let me look. ", "tool: t1", "agent: Found it."],
  },
  {
    name: "a tool call update between chunks ends the message",
    steps: v1Turn([toolCall("t1", "Read"), v1Chunk("reading "), toolDone("t1", "completed"), v1Chunk("done")]),
    timeline: ["tool: t1", "agent: reading ", "agent: done"],
  },
  {
    name: "a thought between chunks: three messages",
    steps: v1Turn([v1Chunk("one "), v1Chunk("hmm", "agent_thought_chunk"), v1Chunk("two")]),
    timeline: ["agent: one ", "thought: hmm", "agent: two"],
  },
  {
    name: "a permission between chunks, allowed or not, ends the message",
    steps: v1Turn([toolCall("t1", "Run"), v1Chunk("asking "), v1Permission("t1", "Run"), v1Chunk("asked")]),
    timeline: ["tool: t1", "agent: asking ", "agent: asked"],
  },
];
