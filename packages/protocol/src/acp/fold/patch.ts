/** What the entity folds share: the variant type by tag and the three-state patch bookkeeping. */
import type { SessionUpdate } from "../../generated/types.js";
import { jsonEqual } from "../json-equal.js";
import { type Meta, patchMeta } from "../meta.js";

/** The payload of one `session/update` variant, by its `sessionUpdate` tag. */
export type UpdateOf<Tag extends SessionUpdate["sessionUpdate"]> = Extract<SessionUpdate, { sessionUpdate: Tag }>;

/**
 * Patch fields have three states: absent (`undefined`) keeps the stored value, `null` resets it
 * to the protocol default, any other value replaces it. An entity keeps the last value sent,
 * `null` included (a replay must send the reset too), and reports a change only when the value
 * a reader sees moves: `null` and never-set both read as `fallback`.
 */
function resolvedChange(before: unknown, after: unknown, fallback?: unknown): boolean {
  return !jsonEqual(before ?? fallback, after ?? fallback);
}

/** Patches `target[key]` with a field of an update (see above). Returns whether a reader sees a change. */
export function patchField<T, K extends keyof T>(
  target: T,
  key: K,
  value: T[K] | undefined,
  fallback?: unknown,
): boolean {
  if (value === undefined) return false;
  const changed = resolvedChange(target[key], value, fallback);
  target[key] = value;
  return changed;
}

/** A list of an update as the entity stores it: our own copy (chunks are pushed onto it), or `null` / absent. */
export function copyList<Item>(list: Item[] | null | undefined): Item[] | null | undefined {
  return list?.slice() ?? list;
}

/**
 * Fields of a known variant this library does not know (a newer schema's), kept by their last
 * value so that a replay still carries them. Own keys only, in a `Map`, so a `__proto__` key
 * stays data.
 */
class ExtraFields {
  #fields: Map<string, unknown> | undefined;

  /** Records the fields of `update` not in `known` (readers of the entity never see them). */
  record(update: object, known: ReadonlySet<string>): void {
    for (const key in update) {
      if (known.has(key) || !Object.hasOwn(update, key)) continue;
      const value: unknown = Reflect.get(update, key);
      if (value === undefined) continue;
      this.#fields ??= new Map();
      this.#fields.set(key, value);
    }
  }

  /** The fields as a plain object, to spread under the known ones of an upsert. */
  toObject(): { [key: string]: unknown } {
    return this.#fields === undefined ? {} : Object.fromEntries(this.#fields);
  }
}

/** What every patched entity has: a revision, its `_meta`, and the fields this library does not know. */
export abstract class PatchedEntity {
  /** Increments on every change a reader can see. */
  revision = 0;
  /** Stored metadata (see `patchMeta`). */
  meta: Meta | undefined;
  readonly #extra = new ExtraFields();

  /**
   * Ends a patch: applies its `_meta`, records its fields not in `known` (when given) and counts
   * the change. Returns whether a reader sees one.
   */
  protected settle(update: { _meta?: unknown }, changed: boolean, known?: ReadonlySet<string>): boolean {
    const meta = patchMeta(this.meta, update._meta);
    if (meta !== this.meta) {
      this.meta = meta;
      changed = true;
    }
    if (known !== undefined) this.#extra.record(update, known);
    if (changed) this.revision++;
    return changed;
  }

  /** Completes the upsert that rebuilds this entity: unknown fields first, `_meta` last. */
  protected withRest<U extends { _meta?: { [key: string]: unknown } | null }>(update: U): U {
    if (this.meta !== undefined) update._meta = this.meta;
    return { ...this.#extra.toObject(), ...update };
  }
}
