#!/usr/bin/env node
// Every pending changeset must be one `changeset version` can apply: its frontmatter parses (with
// the parser the release tooling uses), names at least one release, and only packages of this
// workspace. A changeset whose frontmatter was reformatted as Markdown (a `## ` heading instead of
// a YAML line) would otherwise only fail at release time. npm test runs this.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import parseChangeset from "@changesets/parse";

const root = join(import.meta.dirname, "..");
const dir = join(root, ".changeset");

/** Names of the workspace's packages (a changeset may name any of them, private ones are ignored by the release). */
function workspacePackages() {
  const names = new Set();
  for (const group of ["packages", "apps", "tools"]) {
    for (const name of readdirSync(join(root, group), { withFileTypes: true })) {
      if (!name.isDirectory()) continue;
      try {
        names.add(JSON.parse(readFileSync(join(root, group, name.name, "package.json"), "utf8")).name);
      } catch {
        // a folder without a manifest is not a package
      }
    }
  }
  return names;
}

const known = workspacePackages();
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
