/**
 * Opaque identifiers. Random UUIDs keep ids unique across connections and across resumes of the
 * same session (a counter would restart at zero in a new process and collide with replayed ids).
 */
export type IdKind =
  | "session"
  | "user_message"
  | "agent_message"
  | "thought"
  | "tool_call"
  | "terminal"
  | "plan"
  | "elicitation";

const PREFIXES: Record<IdKind, string> = {
  session: "sess",
  user_message: "msg_user",
  agent_message: "msg_agent",
  thought: "msg_thought",
  tool_call: "call",
  terminal: "term",
  plan: "plan",
  elicitation: "elic",
};

export type IdGenerator = (kind: IdKind) => string;

export const randomIds: IdGenerator = (kind) => `${PREFIXES[kind]}_${globalThis.crypto.randomUUID()}`;
