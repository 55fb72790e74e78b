#!/usr/bin/env node
// Every pending changeset must be one `changeset version` can apply: its frontmatter parses (with
// the parser the release tooling uses), names at least one release, and only packages of this
// workspace. A changeset whose frontmatter was reformatted as Markdown (a `## ` heading instead of
// a YAML line) would otherwise only fail at release time. npm test runs this.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import parseChangeset from "@changesets/parse";
import { root, workspaceManifests } from "./workspace.mjs";

const dir = join(root, ".changeset");

/** A changeset may name any workspace package (the release skips private ones). */
const known = new Set(workspaceManifests().map(({ manifest }) => manifest.name));
const problems = [];
const files = readdirSync(dir).filter((file) => file.endsWith(".md") && file !== "README.md");
for (const file of files) {
  let releases;
  try {
    ({ releases } = parseChangeset(readFileSync(join(dir, file), "utf8")));
  } catch (error) {
    problems.push(`${file}: ${String(error.message).split("\n")[0]}`);
    continue;
  }
  if (releases.length === 0) problems.push(`${file}: names no package to release`);
  for (const { name } of releases) if (!known.has(name)) problems.push(`${file}: ${name} is not a workspace package`);
}

if (problems.length > 0) {
  for (const problem of problems) console.error(`✗ .changeset/${problem}`);
  console.error('  a changeset starts with `---`, one `"package": patch|minor|major` line per package, `---`');
  process.exit(1);
}
console.log(`✓ ${files.length} changesets parse and name workspace packages (scripts/changesets-check.mjs)`);
