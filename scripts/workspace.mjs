// The workspace's packages, as the scripts see them: every folder of `packages/`, `apps/` and
// `tools/` with a package.json (pnpm-workspace.yaml also lists `schema` and `bench`, which
// publish nothing and run no vitest report of their own here).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

export const root = join(import.meta.dirname, "..");
const WORKSPACE_GROUPS = ["packages", "apps", "tools"];

/** Each workspace package's manifest: `{ file, dir (relative to the root), manifest }`, in name order per group. */
export function workspaceManifests() {
  const found = [];
  for (const group of WORKSPACE_GROUPS) {
    const groupDir = join(root, group);
    if (!existsSync(groupDir)) continue;
    for (const name of readdirSync(groupDir).sort()) {
      const file = join(groupDir, name, "package.json");
      if (!existsSync(file)) continue;
      found.push({ file, dir: relative(root, join(groupDir, name)), manifest: JSON.parse(readFileSync(file, "utf8")) });
    }
  }
  return found;
}
