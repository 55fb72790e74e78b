/** Messages: `user_message` / `agent_message` / `agent_thought` upserts and their chunks. */
import type { ContentBlock, SessionUpdate } from "../../generated/types.js";
import type { MessageContent } from "./content-list.js";
import { PatchedEntity } from "./patch.js";

/** Which message ID space a message lives in (IDs are unique per kind within a session). */
export type MessageKind = "user" | "agent" | "thought";

const UPSERT_TAGS = { user: "user_message", agent: "agent_message", thought: "agent_thought" } as const;

/** What a message upsert carries, whatever its kind. */
interface MessagePatch {
  content?: ContentBlock[] | null;
  _meta?: unknown;
}

/** One message. Its `_meta` is patched by the upserts only; chunks never touch it. */
export class MessageState extends PatchedEntity {
  readonly type = "message";

  constructor(
    readonly kind: MessageKind,
    readonly messageId: string,
    /** The last full `content`, with the chunks received after it appended. */
    readonly content: MessageContent,
  ) {
    super();
  }

  /** An upsert: `content` replaces everything (`null` empties it), `_meta` patches. */
  upsert(update: MessagePatch): boolean {
    // Fields of a message upsert this library does not know are not kept.
    return this.settle(update, update.content !== undefined && this.content.replace(update.content ?? []));
  }

  /** A chunk appends its block. A chunk's `_meta` is chunk-scoped: it never patches the message. */
  append(block: ContentBlock): void {
    this.content.push(block);
    this.revision++;
  }

  /** The one upsert that rebuilds this message in a fresh store. */
  toUpdate(): SessionUpdate {
    const update = {
      sessionUpdate: UPSERT_TAGS[this.kind],
      messageId: this.messageId,
      content: this.content.toArray(),
    };
    return this.meta === undefined ? update : { ...update, _meta: this.meta };
  }
}
