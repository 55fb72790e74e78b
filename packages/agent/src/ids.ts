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

/** The id spaces the engine keeps unique within a session. Messages of every kind share one. */
export type IdSpace = "message" | "tool_call" | "terminal";

const SPACE_OF: Partial<Record<IdKind, IdSpace>> = {
  user_message: "message",
  agent_message: "message",
  thought: "message",
  tool_call: "tool_call",
  terminal: "terminal",
};

/** The ids a session has used, seeded from its history on resume. */
export class SessionIds {
  readonly #used: Record<IdSpace, Set<string>> = { message: new Set(), tool_call: new Set(), terminal: new Set() };

  /** The id space a generated id of `kind` lives in, if the engine keeps it unique. */
  static spaceOf(kind: IdKind): IdSpace | undefined {
    return SPACE_OF[kind];
  }

  has(space: IdSpace, id: string): boolean {
    return this.#used[space].has(id);
  }

  /** Records `id` as used; false (and nothing recorded) when it already was. */
  claim(space: IdSpace, id: string): boolean {
    const used = this.#used[space];
    if (used.has(id)) return false;
    used.add(id);
    return true;
  }

  /** Records the ids an update of the history names (message, tool call and terminal ids). */
  seed(update: { sessionUpdate?: unknown; messageId?: unknown; toolCallId?: unknown; terminalId?: unknown }): void {
    if (typeof update.messageId === "string") this.#used.message.add(update.messageId);
    if (typeof update.toolCallId === "string") this.#used.tool_call.add(update.toolCallId);
    if (typeof update.terminalId === "string" && update.sessionUpdate === "terminal_update")
      this.#used.terminal.add(update.terminalId);
  }
}
