import type { SessionUpdate } from "@acp-kit/protocol/types";
import { DuplicateIdError } from "./errors.js";

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

/** How many times a generated id that is already used is asked for again before giving up. */
const GENERATOR_ATTEMPTS = 16;

/**
 * The ids of one session: fresh ones from the generator, author-chosen ones claimed, and those a
 * retained history already uses (seeded on resume). Message, tool call and terminal ids are never
 * handed out twice in the session.
 */
export class SessionIds {
  readonly #generate: IdGenerator;
  /** Each space's set is made on its first id (an empty `Set` costs ~150 bytes a session). */
  readonly #usedSets: Partial<Record<IdSpace, Set<string>>> = {};
  /**
   * Whether message ids are recorded. Only the generator makes them (an author never chooses one),
   * and `randomIds` cannot repeat (122 random bits): with it, recording them would cost a lookup
   * and a set entry per message, kept for the life of the session, for nothing.
   */
  readonly #recordsMessages: boolean;

  constructor(generate: IdGenerator) {
    this.#generate = generate;
    this.#recordsMessages = generate !== randomIds;
  }

  /** A fresh id; for messages, tool calls and terminals one never used in the session. */
  newId(kind: IdKind): string {
    const space = SPACE_OF[kind];
    if (space === undefined || (space === "message" && !this.#recordsMessages)) return this.#generate(kind);
    // A generator may restart (a counter in a new process, after a resume): ask again a few times.
    let id = this.#generate(kind);
    for (let attempt = 1; attempt < GENERATOR_ATTEMPTS && this.#usedSets[space]?.has(id) === true; attempt++)
      id = this.#generate(kind);
    return this.claimId(space, id);
  }

  /** Claims an author-chosen id for a new tool call or terminal (throws `DuplicateIdError` if used). */
  claimId(space: IdSpace, id: string): string {
    const used = this.#used(space);
    if (used.has(id)) throw new DuplicateIdError(space, id);
    used.add(id);
    return id;
  }

  #used(space: IdSpace): Set<string> {
    let used = this.#usedSets[space];
    if (used === undefined) {
      used = new Set();
      this.#usedSets[space] = used;
    }
    return used;
  }

  /** The author's id (claimed) when given, else a fresh one. */
  idFor(space: "tool_call" | "terminal", id: string | undefined): string {
    return id === undefined ? this.newId(space) : this.claimId(space, id);
  }

  /** Records the ids an update of the history names (message, tool call and terminal ids). */
  seed(update: SessionUpdate): void {
    if (this.#recordsMessages && "messageId" in update && typeof update.messageId === "string")
      this.#used("message").add(update.messageId);
    if ("toolCallId" in update && typeof update.toolCallId === "string") this.#used("tool_call").add(update.toolCallId);
    if (update.sessionUpdate === "terminal_update" && typeof update.terminalId === "string")
      this.#used("terminal").add(update.terminalId);
  }
}
