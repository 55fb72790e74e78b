/**
 * Two runs of one agent differ in their generated ids (session, message, tool call, terminal
 * ids; JSON-RPC ids). `Normalizer` replaces each such value by a stable placeholder, numbered
 * in order of first appearance (`<sessionId 1>`), so two runs compare equal when they did the
 * same thing.
 */

const ID_KEY = /(^id$|Id$)/;

export class Normalizer {
  readonly #names = new Map<string, string>();
  readonly #counts = new Map<string, number>();

  /** A placeholder for `value` under `key`: the same value always gets the same one. */
  placeholder(key: string, value: string | number): string {
    const lookup = `${key}\u0000${typeof value}:${value}`;
    let name = this.#names.get(lookup);
    if (name === undefined) {
      const n = (this.#counts.get(key) ?? 0) + 1;
      this.#counts.set(key, n);
      name = `<${key} ${n}>`;
      this.#names.set(lookup, name);
    }
    return name;
  }

  normalize(value: unknown, key = ""): unknown {
    if ((typeof value === "string" || typeof value === "number") && ID_KEY.test(key))
      return this.placeholder(key, value);
    if (Array.isArray(value)) return value.map((v) => this.normalize(v, key));
    if (typeof value === "object" && value !== null)
      return Object.fromEntries(
        Object.entries(value)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([k, v]) => [k, this.normalize(v, k)]),
      );
    return value;
  }
}

/** A line diff (longest common subsequence): unchanged lines as `  x`, removed `- x`, added `+ x`. */
export function lineDiff(before: readonly string[], after: readonly string[]): string[] {
  const n = before.length;
  const m = after.length;
  // Bounded: beyond this size, compare line by line instead of an O(n*m) table.
  if (n * m > 4_000_000) {
    const out: string[] = [];
    for (let i = 0; i < Math.max(n, m); i++) {
      if (before[i] === after[i]) out.push(`  ${before[i]}`);
      else {
        if (i < n) out.push(`- ${before[i]}`);
        if (i < m) out.push(`+ ${after[i]}`);
      }
    }
    return out;
  }
  const table = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      (table[i] as Uint32Array)[j] =
        before[i] === after[j]
          ? ((table[i + 1] as Uint32Array)[j + 1] as number) + 1
          : Math.max((table[i + 1] as Uint32Array)[j] as number, (table[i] as Uint32Array)[j + 1] as number);
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (before[i] === after[j]) {
      out.push(`  ${before[i++]}`);
      j++;
    } else if (((table[i + 1] as Uint32Array)[j] as number) >= ((table[i] as Uint32Array)[j + 1] as number))
      out.push(`- ${before[i++]}`);
    else out.push(`+ ${after[j++]}`);
  }
  while (i < n) out.push(`- ${before[i++]}`);
  while (j < m) out.push(`+ ${after[j++]}`);
  return out;
}
