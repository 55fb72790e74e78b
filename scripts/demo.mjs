#!/usr/bin/env node
// `npm run demo`: the sample client drives the sample agent over stdio, in a throwaway project
// folder, so every path on screen exists and nothing in this checkout is touched.
// Expects the apps to be built (scripts/run.mjs builds first).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const project = mkdtempSync(join(tmpdir(), "acp-kit-demo-"));
const cleanup = () => rmSync(project, { recursive: true, force: true });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => {}); // the client handles them; we clean up after

mkdirSync(join(project, "src"));
writeFileSync(join(project, "src", "greeting.ts"), 'export const greeting = "Hello";\n');
writeFileSync(join(project, "package.json"), `${JSON.stringify({ name: "sample", version: "1.0.0" }, null, 2)}\n`);

console.log(
  [
    "acp-kit demo: the sample client (apps/sample-client) drives the sample agent (apps/sample-agent)",
    "over stdio. The agent is scripted, with no model: it always takes the same steps (a thought, a plan,",
    "a read, an edit behind a permission request, a test run in a terminal, a reply, usage) and edits",
    "nothing on disk. It works in a temporary folder with a small project in it:",
    `  ${project}`,
    "The ◆ line at the end is the session title the agent sets from the first prompt.",
    "",
  ].join("\n"),
);

const r = spawnSync(
  process.execPath,
  [
    join(root, "apps", "sample-client", "dist", "bin.js"),
    "--yes",
    "--prompt",
    "show me everything",
    "--cwd",
    project,
    "--",
    process.execPath,
    join(root, "apps", "sample-agent", "dist", "bin.js"),
  ],
  { cwd: project, stdio: "inherit" },
);
cleanup();
console.log(
  "\n(the temporary folder was removed; try the REPL: node apps/sample-client/dist/bin.js -- node apps/sample-agent/dist/bin.js)",
);
process.exit(r.status ?? 1);
