// Where the code examples live: every ```ts / ```tsx block of a README is the verbatim text of a
// file under some examples/ folder (blocks fenced as ```ts reference are API outlines, not code).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

export const root = join(import.meta.dirname, "..", "..", "..");

function childDirs(group: string): string[] {
  const dir = join(root, group);
  return existsSync(dir) ? readdirSync(dir).map((name) => join(group, name)) : [];
}

/** The project folders that may hold README.md and examples/. */
export const projectDirs = ["packages", "apps", "tools"].flatMap(childDirs);

export function readmes(): string[] {
  return ["README.md", "CONTRIBUTING.md", ...projectDirs.map((dir) => join(dir, "README.md"))].filter((file) =>
    existsSync(join(root, file)),
  );
}

export interface CodeBlock {
  readme: string;
  info: string;
  code: string;
}

export function codeBlocks(readme: string): CodeBlock[] {
  const text = readFileSync(join(root, readme), "utf8");
  return [...text.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    readme,
    info: m[1]!.trim(),
    code: m[2]!,
  }));
}

/** Every examples/**\/*.ts(x) file, repo-relative. */
export function exampleFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name)) files.push(path);
    }
  };
  for (const dir of projectDirs) if (existsSync(join(root, dir, "examples"))) walk(join(dir, "examples"));
  return files.sort();
}

export const repoRelative = (path: string) => relative(root, path);
