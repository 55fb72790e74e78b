#!/usr/bin/env node
// `pnpm run docs`: the API reference (TypeDoc, options in typedoc.json), built in any checkout.
// TypeDoc derives its source links from the `origin` remote, and warns (an error under
// `treatWarningsAsErrors`) where there is none: a fresh `git init`, a fork cloned without remotes.
// The links come from the repository URL in the root package.json instead, the one place it is
// kept; git still supplies the commit to link to and the list of tracked files, where there is git.
// Extra arguments go to TypeDoc as they are (`pnpm run docs --logLevel Warn`).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./workspace.mjs";

/**
 * The source link template for a package.json `repository` (a string or `{ url }`), e.g.
 * `git+https://github.com/o/r.git` -> `https://github.com/o/r/blob/{gitRevision}/{path}#L{line}`.
 */
export function sourceLinkTemplate(repository) {
  const url = typeof repository === "string" ? repository : repository?.url;
  if (typeof url !== "string" || url === "") {
    throw new Error("package.json has no repository URL: the API reference's source links need one");
  }
  const web = url
    .replace(/^git\+/, "")
    .replace(/^git@([^:]+):/, "https://$1/")
    .replace(/^(?:git|ssh):\/\/(?:[^@/]+@)?/, "https://")
    .replace(/\.git$/, "")
    .replace(/\/$/, "");
  return `${web}/blob/{gitRevision}/{path}#L{line}`;
}

if (import.meta.filename === process.argv[1]) {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const typedoc = join(root, "node_modules", "typedoc", "bin", "typedoc");
  const args = ["--sourceLinkTemplate", sourceLinkTemplate(manifest.repository), ...process.argv.slice(2)];
  const result = spawnSync(process.execPath, [typedoc, ...args], { cwd: root, stdio: "inherit" });
  if (result.error) throw result.error;
  process.exit(result.status ?? 1);
}
