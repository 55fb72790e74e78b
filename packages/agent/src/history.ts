/**
 * Compaction of a session's update history for replay.
 *
 * Replaying the raw history is always correct but can be long (one update per streamed token).
 * This folds each entity's updates into one upsert placed at the entity's first position, so that
 * a client applying the compacted history reaches the same state as one that saw every update:
 * - messages (user / agent / thought, updates and chunks) -> one `*_message` / `agent_thought`
 *   with the final `content` and `_meta`;
 * - tool calls (updates and content chunks) -> one `tool_call_update` with every field's final
 *   value (`null` kept where the last patch cleared a field);
 * - terminals (updates and output chunks) -> one `terminal_update` with an `output` snapshot;
 * - compactions (updates and summary chunks) -> one `compaction_update`;
 * - plans -> the last content of each plan, at the plan's first position;
 * - command list, config options, usage and session info -> one update at the last position;
 * - `state_update` and `notice` are not history and are dropped; unknown updates stay raw.
 *
 * `HistoryFold` does this incrementally: each appended update is folded into its entity in place
 * (a chunk is one push, accumulated content is never copied; plain text chunks are kept as joined
 * text, see `history-content.ts`), so appending costs O(1) amortized however long the turn; the
 * copies are made once, when the compacted history is read.
 */
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { fromBase64, toBase64 } from "./base64.js";
import { ContentList } from "./history-content.js";
import { type Meta, patchMeta } from "./meta-patch.js";

type Json = Record<string, unknown>;

interface Entity {
  /** Folds one more update of this entity; returns false when it cannot (the update stays raw). */
  fold(update: Json): boolean;
  result(): Json;
}

const MESSAGE_KINDS: Record<string, { kind: string; upsert: string; chunk: boolean }> = {
  user_message: { kind: "user", upsert: "user_message", chunk: false },
  user_message_chunk: { kind: "user", upsert: "user_message", chunk: true },
  agent_message: { kind: "agent", upsert: "agent_message", chunk: false },
  agent_message_chunk: { kind: "agent", upsert: "agent_message", chunk: true },
  agent_thought: { kind: "thought", upsert: "agent_thought", chunk: false },
  agent_thought_chunk: { kind: "thought", upsert: "agent_thought", chunk: true },
};

class MessageEntity implements Entity {
  readonly #content = new ContentList();
  #meta: Meta | null | undefined;
  constructor(
    readonly upsert: string,
    readonly messageId: string,
  ) {}
  fold(update: Json): boolean {
    if (MESSAGE_KINDS[update.sessionUpdate as string]?.chunk) {
      this.#content.push(update.content);
      return true;
    }
    if ("content" in update) this.#content.replace(Array.isArray(update.content) ? update.content : []);
    this.#meta = patchMeta(this.#meta, update._meta, "_meta" in update);
    return true;
  }
  result(): Json {
    const out: Json = { sessionUpdate: this.upsert, messageId: this.messageId, content: this.#content.toArray() };
    if (this.#meta) out._meta = this.#meta;
    return out;
  }
}

/**
 * Entities patched field by field, with `_meta` key-merged and one appendable array field.
 * `defaults` are the values a client assumes for fields no update ever set (for example the
 * `status` of a compaction seen only through its summary chunks), written out so that the
 * folded upsert is valid on its own.
 */
class PatchedEntity implements Entity {
  readonly #fields = new Map<string, unknown>();
  #meta: Meta | null | undefined;
  constructor(
    readonly upsert: string,
    readonly idField: string,
    readonly id: string,
    readonly chunkVariant: string,
    readonly appendField: string,
    readonly defaults: Readonly<Json> = {},
  ) {}
  fold(update: Json): boolean {
    if (update.sessionUpdate === this.chunkVariant) {
      // Arrays in #fields are always our own copies, so a chunk is appended in place.
      const current = this.#fields.get(this.appendField);
      if (Array.isArray(current)) current.push(update.content);
      else this.#fields.set(this.appendField, [update.content]);
      return true;
    }
    for (const [key, value] of Object.entries(update)) {
      if (key === "sessionUpdate" || key === this.idField || key === "_meta") continue;
      this.#fields.set(key, Array.isArray(value) ? [...value] : value);
    }
    this.#meta = patchMeta(this.#meta, update._meta, "_meta" in update);
    return true;
  }
  result(): Json {
    const out: Json = { sessionUpdate: this.upsert, [this.idField]: this.id };
    for (const [key, value] of Object.entries(this.defaults)) if (!this.#fields.has(key)) out[key] = value;
    for (const [key, value] of this.#fields) out[key] = Array.isArray(value) ? value.slice() : value;
    if (this.#meta !== undefined) out._meta = this.#meta;
    return out;
  }
}

/** Terminal output is bytes: chunks are decoded and re-encoded as one `output` snapshot. */
class TerminalEntity implements Entity {
  readonly #fields = new Map<string, unknown>();
  #meta: Meta | null | undefined;
  /** `undefined`: output never reported; `null`: cleared. */
  #output: Uint8Array[] | null | undefined;
  #outputMeta: unknown;
  constructor(readonly terminalId: string) {}
  fold(update: Json): boolean {
    try {
      if (update.sessionUpdate === "terminal_output_chunk") {
        const bytes = fromBase64(update.data as string);
        if (this.#output) this.#output.push(bytes);
        else this.#output = [bytes];
        this.#outputMeta = undefined;
        return true;
      }
      if ("output" in update) {
        const output = update.output as { data: string; _meta?: unknown } | null;
        this.#output = output === null ? null : [fromBase64(output.data)];
        this.#outputMeta = output?._meta;
      }
    } catch {
      return false;
    }
    for (const [key, value] of Object.entries(update)) {
      if (key === "sessionUpdate" || key === "terminalId" || key === "_meta" || key === "output") continue;
      this.#fields.set(key, value);
    }
    this.#meta = patchMeta(this.#meta, update._meta, "_meta" in update);
    return true;
  }
  result(): Json {
    const out: Json = { sessionUpdate: "terminal_update", terminalId: this.terminalId };
    for (const [key, value] of this.#fields) out[key] = value;
    if (this.#output === null) out.output = null;
    else if (this.#output !== undefined) {
      const length = this.#output.reduce((n, b) => n + b.length, 0);
      const all = new Uint8Array(length);
      let offset = 0;
      for (const bytes of this.#output) {
        all.set(bytes, offset);
        offset += bytes.length;
      }
      out.output =
        this.#outputMeta === undefined ? { data: toBase64(all) } : { data: toBase64(all), _meta: this.#outputMeta };
    }
    if (this.#meta !== undefined) out._meta = this.#meta;
    return out;
  }
}

class LastValueEntity implements Entity {
  constructor(private last: Json) {}
  fold(update: Json): boolean {
    this.last = update;
    return true;
  }
  result(): Json {
    return this.last;
  }
}

class UsageEntity implements Entity {
  #last: Json;
  #cost: unknown;
  constructor(first: Json) {
    this.#last = first;
  }
  fold(update: Json): boolean {
    this.#last = update;
    if ("cost" in update) this.#cost = update.cost;
    return true;
  }
  result(): Json {
    const out: Json = { ...this.#last };
    if (this.#cost === undefined) delete out.cost;
    else out.cost = this.#cost;
    return out;
  }
}

class SessionInfoEntity implements Entity {
  readonly #fields = new Map<string, unknown>();
  #meta: Meta | null | undefined;
  fold(update: Json): boolean {
    for (const [key, value] of Object.entries(update)) {
      if (key === "sessionUpdate" || key === "_meta") continue;
      this.#fields.set(key, value);
    }
    this.#meta = patchMeta(this.#meta, update._meta, "_meta" in update);
    return true;
  }
  result(): Json {
    const out: Json = { sessionUpdate: "session_info_update" };
    for (const [key, value] of this.#fields) out[key] = value;
    if (this.#meta !== undefined) out._meta = this.#meta;
    return out;
  }
}

/**
 * How the updates of one variant fold: which family of entities they belong to (ids are unique
 * within a family), where the folded upsert sits, and how to read the id and create the entity.
 * One static descriptor per variant, so classifying an update allocates nothing.
 */
interface Kind {
  readonly family: string;
  readonly position: "first" | "last";
  /** The entity's id, or `undefined` when the update has none (it then stays raw). */
  id(update: Json): string | undefined;
  create(id: string, update: Json): Entity;
}

const stringField =
  (field: string) =>
  (update: Json): string | undefined => {
    const id = update[field];
    return typeof id === "string" ? id : undefined;
  };

const singleton = (): string => "";

function messageKind(kind: string, upsert: string): Kind {
  return {
    family: `message:${kind}`,
    position: "first",
    id: stringField("messageId"),
    create: (id) => new MessageEntity(upsert, id),
  };
}

const TOOL_CALL: Kind = {
  family: "tool",
  position: "first",
  id: stringField("toolCallId"),
  create: (id) => new PatchedEntity("tool_call_update", "toolCallId", id, "tool_call_content_chunk", "content"),
};
const TERMINAL: Kind = {
  family: "terminal",
  position: "first",
  id: stringField("terminalId"),
  create: (id) => new TerminalEntity(id),
};
const COMPACTION: Kind = {
  family: "compaction",
  position: "first",
  id: stringField("compactionId"),
  create: (id) =>
    new PatchedEntity("compaction_update", "compactionId", id, "compaction_summary_chunk", "summary", {
      // A first-seen id in a summary chunk creates an in-progress compaction.
      status: "in_progress",
    }),
};
const lastValue = (family: string): Kind => ({
  family,
  position: "last",
  id: singleton,
  create: (_id, update) => new LastValueEntity(update),
});

const KINDS: Readonly<Record<string, Kind | "drop">> = {
  ...Object.fromEntries(Object.entries(MESSAGE_KINDS).map(([variant, m]) => [variant, messageKind(m.kind, m.upsert)])),
  state_update: "drop",
  notice: "drop",
  tool_call_update: TOOL_CALL,
  tool_call_content_chunk: TOOL_CALL,
  terminal_update: TERMINAL,
  terminal_output_chunk: TERMINAL,
  compaction_update: COMPACTION,
  compaction_summary_chunk: COMPACTION,
  plan_update: {
    family: "plan",
    position: "first",
    id: (update) => {
      const id = (update.plan as { planId?: unknown } | undefined)?.planId;
      return typeof id === "string" ? id : undefined;
    },
    create: (_id, update) => new LastValueEntity(update),
  },
  available_commands_update: lastValue("available_commands_update"),
  config_option_update: lastValue("config_option_update"),
  usage_update: {
    family: "usage_update",
    position: "last",
    id: singleton,
    create: (_id, update) => new UsageEntity(update),
  },
  session_info_update: {
    family: "session_info_update",
    position: "last",
    id: singleton,
    create: () => new SessionInfoEntity(),
  },
};

interface EntityEntry {
  readonly entity: Entity;
  /** Index of the entity's slot in `HistoryFold.#slots`. */
  slot: number;
}

type Slot = { readonly raw: Json } | EntityEntry | null;

/** Below this many vacated slots the fold does not bother reclaiming them. */
const MIN_VACATED_TO_RECLAIM = 64;

/**
 * A session's history, compacted as it is appended. `append` folds one update into its entity
 * in place; `updates()` returns the compacted history (what `compactHistory` returns for every
 * update appended so far), as new objects that later appends do not change.
 */
export class HistoryFold {
  #slots: Slot[] = [];
  /**
   * Entities by family, then id. `null` marks an entity that failed to fold (e.g. undecodable
   * terminal bytes): its later updates stay raw.
   */
  readonly #entities = new Map<string, Map<string, EntityEntry | null>>();
  /** Slots emptied by an entity moving to the last position; reclaimed once they dominate. */
  #vacated = 0;

  /** How many updates `updates()` would return now. */
  get length(): number {
    return this.#slots.length - this.#vacated;
  }

  append(item: SessionUpdate): void {
    const update = item as unknown as Json;
    const variant = update.sessionUpdate;
    const kind = typeof variant === "string" && Object.hasOwn(KINDS, variant) ? KINDS[variant] : undefined;
    if (kind === "drop") return;
    const id = kind?.id(update);
    if (kind === undefined || id === undefined) {
      this.#slots.push({ raw: update });
      return;
    }
    let family = this.#entities.get(kind.family);
    if (family === undefined) {
      family = new Map();
      this.#entities.set(kind.family, family);
    }
    let entry = family.get(id);
    if (entry === null) {
      // Poisoned: this entity failed to fold once, so every later update of it stays raw.
      this.#slots.push({ raw: update });
      return;
    }
    if (entry === undefined) {
      entry = { entity: kind.create(id, update), slot: this.#slots.length };
      family.set(id, entry);
      this.#slots.push(entry);
    } else if (kind.position === "last" && entry.slot !== this.#slots.length - 1) {
      this.#slots[entry.slot] = null;
      this.#vacated++;
      entry.slot = this.#slots.length;
      this.#slots.push(entry);
      this.#reclaim();
    }
    if (!entry.entity.fold(update)) {
      family.set(id, null);
      this.#slots.push({ raw: update });
    }
  }

  updates(): SessionUpdate[] {
    const out: SessionUpdate[] = [];
    for (const slot of this.#slots) {
      if (slot === null) continue;
      out.push(("raw" in slot ? slot.raw : slot.entity.result()) as unknown as SessionUpdate);
    }
    return out;
  }

  /** Drops vacated slots once they outnumber the live ones: O(1) amortized per append. */
  #reclaim(): void {
    if (this.#vacated < MIN_VACATED_TO_RECLAIM || this.#vacated * 2 < this.#slots.length) return;
    const live: Slot[] = [];
    for (const slot of this.#slots) {
      if (slot === null) continue;
      if (!("raw" in slot)) slot.slot = live.length;
      live.push(slot);
    }
    this.#slots = live;
    this.#vacated = 0;
  }
}

/** The compacted form of `history` (see the top of this file). */
export function compactHistory(history: readonly SessionUpdate[]): SessionUpdate[] {
  const fold = new HistoryFold();
  for (const update of history) fold.append(update);
  return fold.updates();
}
