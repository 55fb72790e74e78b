/**
 * The scenario language of the scripted agent: per prompt, a list of steps run in order.
 *
 *   { update: {...} }                 send `session/update` with this update (for the prompt's session)
 *   { respond: {...} }                answer the `session/prompt` request with this result (default `{messageId}`)
 *   { respondError: {code, message} } answer it with an error
 *   { request: "m", params: {...} }   send a request to the client and wait for its answer
 *                                     (`wait: false` to go on at once; `name` to wait for it later)
 *   { waitFor: "session/cancel" }     wait until the client cancels the session (or `waitFor: name`)
 *   { sleep: ms }                     pause
 *   { die: true }                     end the connection abruptly (a process exits with status 1)
 *
 * Strings `$sessionId`, `$messageId` (a fresh user-message id per prompt), `$prompt` (the
 * prompt's content blocks) and `$n` (1-based prompt number) are replaced inside every value.
 */

export type AgentStep =
  | { update: Record<string, unknown> }
  | { respond: unknown }
  | { respondError: { code: number; message: string; data?: unknown } }
  | { request: string; params?: unknown; name?: string; wait?: boolean }
  | { waitFor: string; timeoutMs?: number }
  | { sleep: number }
  | { die: true };

export interface AgentScript {
  /** The `initialize` result (default: protocol 2, `capabilities: { session: {} }`). */
  initialize?: Record<string, unknown>;
  /** Extra fields of the `session/new` result (its `sessionId` is generated unless given). */
  newSession?: Record<string, unknown>;
  /** Steps of the 1st, 2nd, ... prompt; the last list serves every later prompt. */
  prompts: AgentStep[][];
  /** Results of other requests by method (`session/close`, extension methods...); others get -32601. */
  answers?: Record<string, unknown>;
  /** Errors to answer requests with, by method (`session/new` included): wins over `answers`. */
  errors?: Record<string, { code: number; message: string; data?: unknown }>;
}

/** The v2 lifecycle around `body`: running, the `user_message` echo, the `{messageId}` response, body, idle. */
export function v2Turn(body: AgentStep[] = [], stopReason: string | null = "end_turn"): AgentStep[] {
  const idle: Record<string, unknown> = { sessionUpdate: "state_update", state: "idle" };
  if (stopReason !== null) idle.stopReason = stopReason;
  return [
    { update: { sessionUpdate: "state_update", state: "running" } },
    { update: { sessionUpdate: "user_message", messageId: "$messageId", content: "$prompt" } },
    { respond: { messageId: "$messageId" } },
    ...body,
    { update: idle },
  ];
}

/** An agent message streamed in chunks (one `messageId`). */
export function agentText(text: string, messageId = "$n-agent"): AgentStep[] {
  return text.split(/(?<=\s)/).map((piece) => ({
    update: { sessionUpdate: "agent_message_chunk", messageId, content: { type: "text", text: piece } },
  }));
}

export interface Bindings {
  sessionId: string;
  messageId: string;
  prompt: unknown;
  n: number;
}

/** `value` with the `$` placeholders replaced (whole strings become the bound value; `$n` also inside strings). */
export function bind(value: unknown, b: Bindings): unknown {
  if (typeof value === "string") {
    if (value === "$sessionId") return b.sessionId;
    if (value === "$messageId") return b.messageId;
    if (value === "$prompt") return b.prompt;
    return value.replaceAll("$n", String(b.n));
  }
  if (Array.isArray(value)) return value.map((v) => bind(v, b));
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bind(v, b)]));
  return value;
}
