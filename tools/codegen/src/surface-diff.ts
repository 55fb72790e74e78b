import type { Surface, SurfaceEnum, SurfaceMethod, SurfaceUnion } from "./surface.ts";

export interface Change<T> {
  readonly name: string;
  readonly before: T;
  readonly after: T;
}

export interface MembersChange {
  readonly name: string;
  readonly added: readonly (string | number)[];
  readonly removed: readonly (string | number)[];
  /** Other attribute changes, e.g. `tag: type -> kind`, `open: true -> false`. */
  readonly notes: readonly string[];
}

export interface SurfaceDiff {
  readonly schema: readonly string[];
  readonly methods: {
    readonly added: readonly string[];
    readonly removed: readonly string[];
    readonly changed: readonly Change<SurfaceMethod>[];
  };
  readonly types: { readonly added: readonly string[]; readonly removed: readonly string[] };
  readonly unions: {
    readonly added: readonly string[];
    readonly removed: readonly string[];
    readonly changed: readonly MembersChange[];
  };
  readonly enums: {
    readonly added: readonly string[];
    readonly removed: readonly string[];
    readonly changed: readonly MembersChange[];
  };
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function keyDiff<T>(before: Readonly<Record<string, T>>, after: Readonly<Record<string, T>>) {
  const added = Object.keys(after)
    .filter((k) => !(k in before))
    .sort();
  const removed = Object.keys(before)
    .filter((k) => !(k in after))
    .sort();
  const common = Object.keys(after)
    .filter((k) => k in before)
    .sort();
  return { added, removed, common };
}

function memberDiff(before: readonly (string | number)[], after: readonly (string | number)[]) {
  const b = new Set(before);
  const a = new Set(after);
  return { added: after.filter((x) => !b.has(x)), removed: before.filter((x) => !a.has(x)) };
}

function unionChange(name: string, before: SurfaceUnion, after: SurfaceUnion): MembersChange | undefined {
  const notes: string[] = [];
  if (before.tag !== after.tag) notes.push(`tag: ${before.tag} -> ${after.tag}`);
  if (before.open !== after.open) notes.push(`open: ${before.open} -> ${after.open}`);
  const { added, removed } = memberDiff(before.variants, after.variants);
  return added.length + removed.length + notes.length === 0 ? undefined : { name, added, removed, notes };
}

function enumChange(name: string, before: SurfaceEnum, after: SurfaceEnum): MembersChange | undefined {
  const notes = before.open !== after.open ? [`open: ${before.open} -> ${after.open}`] : [];
  const { added, removed } = memberDiff(before.values, after.values);
  return added.length + removed.length + notes.length === 0 ? undefined : { name, added, removed, notes };
}

export function diffSurfaces(before: Surface, after: Surface): SurfaceDiff {
  const schema: string[] = [];
  for (const key of ["package", "version", "file", "sha256"] as const) {
    if (before.schema[key] !== after.schema[key]) schema.push(`${key}: ${before.schema[key]} -> ${after.schema[key]}`);
  }
  if (before.protocolVersion !== after.protocolVersion)
    schema.push(`protocolVersion: ${before.protocolVersion} -> ${after.protocolVersion}`);

  const m = keyDiff(before.methods, after.methods);
  const changedMethods = m.common
    .filter((k) => !same(before.methods[k], after.methods[k]))
    .map((k) => ({ name: k, before: before.methods[k] as SurfaceMethod, after: after.methods[k] as SurfaceMethod }));

  const t = memberDiff(before.types, after.types);

  const u = keyDiff(before.unions, after.unions);
  const changedUnions = u.common.flatMap(
    (k) => unionChange(k, before.unions[k] as SurfaceUnion, after.unions[k] as SurfaceUnion) ?? [],
  );

  const e = keyDiff(before.enums, after.enums);
  const changedEnums = e.common.flatMap(
    (k) => enumChange(k, before.enums[k] as SurfaceEnum, after.enums[k] as SurfaceEnum) ?? [],
  );

  return {
    schema,
    methods: { added: m.added, removed: m.removed, changed: changedMethods },
    types: { added: [...t.added].map(String).sort(), removed: [...t.removed].map(String).sort() },
    unions: { added: u.added, removed: u.removed, changed: changedUnions },
    enums: { added: e.added, removed: e.removed, changed: changedEnums },
  };
}

export function isEmptyDiff(diff: SurfaceDiff): boolean {
  return (
    diff.schema.length === 0 &&
    [diff.methods, diff.unions, diff.enums].every((g) => g.added.length + g.removed.length + g.changed.length === 0) &&
    diff.types.added.length + diff.types.removed.length === 0
  );
}

function describeMethod(m: SurfaceMethod): string {
  return `${m.kind} handled by ${m.handledBy}, params ${m.params}${m.result === undefined ? "" : `, result ${m.result}`}`;
}

const list = (xs: readonly (string | number)[]): string => xs.map((x) => `\`${x}\``).join(", ");

/** Markdown summary of a diff, one bullet per change; `"No surface changes."` when empty. */
export function formatSurfaceDiff(diff: SurfaceDiff): string {
  if (isEmptyDiff(diff)) return "No surface changes.\n";
  const lines: string[] = [];
  const section = (title: string, bullets: readonly string[]): void => {
    if (bullets.length === 0) return;
    lines.push(`### ${title}`, "", ...bullets.map((b) => `- ${b}`), "");
  };
  section("Schema", diff.schema);
  section("Methods", [
    ...diff.methods.added.map((n) => `added \`${n}\``),
    ...diff.methods.removed.map((n) => `removed \`${n}\``),
    ...diff.methods.changed.map(
      (c) => `changed \`${c.name}\`: ${describeMethod(c.before)} -> ${describeMethod(c.after)}`,
    ),
  ]);
  section("Types", [
    ...diff.types.added.map((n) => `added \`${n}\``),
    ...diff.types.removed.map((n) => `removed \`${n}\``),
  ]);
  const members = (what: string, c: readonly MembersChange[]): string[] =>
    c.map((x) => {
      const parts = [
        x.added.length > 0 ? `added ${what} ${list(x.added)}` : "",
        x.removed.length > 0 ? `removed ${what} ${list(x.removed)}` : "",
        ...x.notes,
      ].filter((p) => p !== "");
      return `\`${x.name}\`: ${parts.join("; ")}`;
    });
  section("Tagged unions", [
    ...diff.unions.added.map((n) => `added \`${n}\``),
    ...diff.unions.removed.map((n) => `removed \`${n}\``),
    ...members("variants", diff.unions.changed),
  ]);
  section("Enums", [
    ...diff.enums.added.map((n) => `added \`${n}\``),
    ...diff.enums.removed.map((n) => `removed \`${n}\``),
    ...members("values", diff.enums.changed),
  ]);
  return lines.join("\n");
}
