#!/usr/bin/env node
// Points every named import from `@acp-kit/protocol` at the entry point that exports the name:
// the root keeps the typed ACP layer and the tables, the schema types are `./types`, the per-type
// decoders `./decoders`, the JSON-RPC core `./jsonrpc`, transcripts and tracing `./tap`.
//
//   node scripts/protocol-imports.mjs [files...]          rewrite (default: every tracked file)
//   node scripts/protocol-imports.mjs --check [files...]  list what would change, exit 1 if any
//
// Covers `import`/`export { … } from "@acp-kit/protocol"` in TypeScript and JavaScript files and
// in the code blocks of Markdown files. Run `pnpm biome check --write` on the rewritten sources.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

const root = join(import.meta.dirname, "..");
const ROOT = "@acp-kit/protocol";
/** Entry points in order of preference: a name the root exports stays a root import. */
const ENTRIES = [
  [ROOT, "index.ts"],
  [`${ROOT}/jsonrpc`, "jsonrpc/index.ts"],
  [`${ROOT}/types`, "types.ts"],
  [`${ROOT}/decoders`, "decoders.ts"],
  [`${ROOT}/tap`, "tap/index.ts"],
];

function entryOfEveryName() {
  const src = join(root, "packages/protocol/src");
  const files = ENTRIES.map(([, file]) => join(src, file));
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const entryOf = new Map();
  ENTRIES.forEach(([specifier], i) => {
    const source = program.getSourceFile(files[i]);
    for (const symbol of checker.getExportsOfModule(checker.getSymbolAtLocation(source))) {
      if (!entryOf.has(symbol.name)) entryOf.set(symbol.name, specifier);
    }
  });
  return entryOf;
}

const DECLARATION = /(^|\n)([ \t]*)(import|export)(\s+type)?\s*\{([^}]*)\}\s*from\s*"@acp-kit\/protocol";/g;
const ELEMENT = /^(type\s+)?([A-Za-z_$][\w$]*)(\s+as\s+[A-Za-z_$][\w$]*)?$/;

/** One declaration per entry point, sorted by specifier; one line when it fits in 120 columns. */
function rewrite(file, text, entryOf) {
  return text.replace(DECLARATION, (whole, lead, indent, keyword, declarationType, body) => {
    const groups = new Map();
    for (const raw of body.split(",")) {
      const element = raw.replace(/\/\/.*$/gm, "").trim();
      if (element === "") continue;
      const match = ELEMENT.exec(element);
      if (!match) throw new Error(`${file}: cannot read the import element ${JSON.stringify(element)}`);
      const entry = entryOf.get(match[2]);
      if (entry === undefined) throw new Error(`${file}: no entry point of ${ROOT} exports ${match[2]}`);
      if (!groups.has(entry)) groups.set(entry, []);
      groups
        .get(entry)
        .push({ typeOnly: declarationType !== undefined || match[1] !== undefined, name: match[2] + (match[3] ?? "") });
    }
    if (groups.size === 1 && groups.has(ROOT)) return whole;
    const declarations = [...groups.keys()].sort().map((entry) => {
      const elements = groups.get(entry);
      const allTypes = elements.every((e) => e.typeOnly);
      const names = elements.map((e) => (e.typeOnly && !allTypes ? `type ${e.name}` : e.name));
      const head = `${indent}${keyword}${allTypes ? " type" : ""} {`;
      const tail = `} from "${entry}";`;
      const line = `${head} ${names.join(", ")} ${tail}`;
      if (line.length <= 120) return line;
      return [head, ...names.map((name) => `${indent}  ${name},`), `${indent}${tail}`].join("\n");
    });
    return lead + declarations.join("\n");
  });
}

const args = process.argv.slice(2);
const check = args.includes("--check");
const given = args.filter((arg) => arg !== "--check");
const files =
  given.length > 0
    ? given
    : execFileSync("git", ["ls-files", "*.ts", "*.tsx", "*.mts", "*.mjs", "*.cjs", "*.js", "*.md"], {
        cwd: root,
        encoding: "utf8",
      })
        .split("\n")
        .filter((file) => file !== "" && !file.startsWith(".changeset/") && !file.endsWith("CHANGELOG.md"))
        .map((file) => join(root, file));

const entryOf = entryOfEveryName();
const changed = [];
for (const file of files) {
  const text = readFileSync(file, "utf8");
  if (!text.includes(`"${ROOT}"`)) continue;
  const next = rewrite(file, text, entryOf);
  if (next === text) continue;
  changed.push(file);
  if (!check) writeFileSync(file, next);
}
for (const file of changed) console.log(`${check ? "would rewrite" : "rewrote"} ${file}`);
if (check && changed.length > 0) process.exit(1);
