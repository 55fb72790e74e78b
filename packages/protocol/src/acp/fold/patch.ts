/** What the entity folds share: the variant type by tag and the patch bookkeeping. */
import type { SessionUpdate } from "../../generated/types.js";
import { jsonEqual } from "../json-equal.js";

/** The payload of one `session/update` variant, by its `sessionUpdate` tag. */
export type UpdateOf<Tag extends SessionUpdate["sessionUpdate"]> = Extract<SessionUpdate, { sessionUpdate: Tag }>;

/**
 * Patch fields have three states: absent (`undefined`) keeps the stored value, `null` resets it
 * to the protocol default, any other value replaces it. An entity keeps the last value sent,
 * `null` included (a replay must send the reset too), and reports a change only when the value
 * a reader sees moves: `null` and never-set both read as `fallback`.
 */
export function resolvedChange(before: unknown, after: unknown, fallback?: unknown): boolean {
  return !jsonEqual(before ?? fallback, after ?? fallback);
}

/**
 * Fields of a known variant this library does not know (a newer schema's), kept by their last
 * value so that a replay still carries them. Own keys only, in a `Map`, so a `__proto__` key
 * stays data.
 */
export class ExtraFields {
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
