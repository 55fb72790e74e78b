/**
 * An agent message or thought of a turn, streamed as chunks and/or replaced as a whole.
 * The id is assigned once and used for every update, so chunks and upserts always land on the
 * same message.
 */
import type { ContentBlock } from "@acp-kit/protocol/types";
import type { UpdateOwner } from "../update-owner.js";
import { type ContentInput, toBlock, toBlocks } from "./content.js";

export type MessageKind = "agent_message" | "agent_thought";

/** What `append` sends and how its errors name it, per kind (built once, not per chunk). */
const APPEND = {
  agent_message: { chunk: "agent_message_chunk", what: "agent_message.append" },
  agent_thought: { chunk: "agent_thought_chunk", what: "agent_thought.append" },
} as const;

export class MessageBuilder {
  readonly id: string;
  readonly kind: MessageKind;
  readonly #owner: UpdateOwner;

  constructor(owner: UpdateOwner, kind: MessageKind, id: string) {
    this.#owner = owner;
    this.kind = kind;
    this.id = id;
  }

  /** Appends one block (a string is a text block) with an `*_chunk` update. */
  append(content: ContentInput): Promise<void> {
    const { chunk, what } = APPEND[this.kind];
    return this.#owner.emit({ sessionUpdate: chunk, messageId: this.id, content: toBlock(content) }, what);
  }

  /** Replaces the whole content (`null` or `[]` clears it) with an upsert. */
  set(content: ContentInput | readonly ContentInput[] | null): Promise<void> {
    const blocks: ContentBlock[] | null = content === null ? null : toBlocks(content);
    return this.#owner.emit({ sessionUpdate: this.kind, messageId: this.id, content: blocks }, `${this.kind}.set`);
  }

  /** Patches the message's `_meta` (by top-level key; `null` drops it) without touching content. */
  meta(meta: Record<string, unknown> | null): Promise<void> {
    return this.#owner.emit({ sessionUpdate: this.kind, messageId: this.id, _meta: meta }, `${this.kind}.meta`);
  }

  /** Appends every piece of an (async) iterable in order, e.g. a model's token stream. */
  async pipe(source: AsyncIterable<ContentInput> | Iterable<ContentInput>): Promise<void> {
    for await (const piece of source) {
      if (typeof piece === "string" && piece.length === 0) continue;
      await this.append(piece);
    }
  }
}
