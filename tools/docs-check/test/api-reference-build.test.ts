// The API reference builds in any checkout, with zero warnings: one with git but no remote (a fresh
// `git init`, a fork cloned without remotes) and one without git at all (a downloaded archive).
// Each case copies the working tree (tracked and untracked files, not the ignored ones, plus the
// generated protocol sources) into a temporary folder, links the installed dependencies in, and
// runs `pnpm run docs`'s script there.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { root } from "./readme-snippets.js";

const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync("git", ["-c", "user.name=docs-check", "-c", "user.email=docs-check@localhost", ...args], {
    cwd,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${r.stderr}`);
  return r.stdout;
}

/** The working tree in a fresh folder, without `.git`, with every `node_modules` linked to the original. */
function copyOfTheTree(): string {
  const copy = mkdtempSync(join(tmpdir(), "acp-kit-docs-"));
  copies.push(copy);
  const files = git(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").split("\0");
  for (const file of files) {
    if (file === "" || !existsSync(join(root, file))) continue; // deleted but not yet committed
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(root, file), join(copy, file));
  }
  const generated = join("packages", "protocol", "src", "generated");
  cpSync(join(root, generated), join(copy, generated), { recursive: true });
  symlinkSync(join(root, "node_modules"), join(copy, "node_modules"));
  for (const group of ["packages", "apps", "tools"]) {
    for (const name of readdirSync(join(copy, group))) {
      const modules = join(root, group, name, "node_modules");
      if (existsSync(modules)) symlinkSync(modules, join(copy, group, name, "node_modules"));
    }
  }
  return copy;
}

function buildDocs(cwd: string): { status: number | null; output: string } {
  const r = spawnSync(process.execPath, [join(cwd, "scripts", "docs.mjs"), "--logLevel", "Warn"], {
    cwd,
    encoding: "utf8",
  });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

const repositoryUrl = "https://github.com/acp-kit/acp-kit/blob/";

describe("the API reference builds in any checkout", { timeout: 300_000 }, () => {
  it("in a git checkout without a remote: zero warnings, source links from package.json at the commit", () => {
    const copy = copyOfTheTree();
    git(copy, "init", "-q");
    git(copy, "add", "-A");
    git(copy, "commit", "-q", "-m", "sources");
    expect(git(copy, "remote").trim()).toBe("");
    const head = git(copy, "rev-parse", "HEAD").trim();

    const { status, output } = buildDocs(copy);
    expect(output).not.toMatch(/warning/i);
    expect(status, output).toBe(0);
    const page = readFileSync(join(copy, "docs", "api", "functions", "_acp-kit_agent.defineAgent.html"), "utf8");
    expect(page).toContain(`${repositoryUrl}${head}/packages/agent/src/agent.ts#L`);
  });

  it("in a copy without git (an archive): zero warnings", () => {
    const copy = copyOfTheTree();
    const { status, output } = buildDocs(copy);
    expect(output).not.toMatch(/warning/i);
    expect(status, output).toBe(0);
    expect(existsSync(join(copy, "docs", "api", "index.html"))).toBe(true);
  });
});
