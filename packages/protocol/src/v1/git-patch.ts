/**
 * Reading a v2 diff's `git_patch` text back into what a v1 diff holds: per file, each hunk's
 * text before and after (context lines on both sides). A v1 `diff` carries texts, not a patch,
 * so a hunk is the most of a patch v1 can show without the whole file.
 */

export interface PatchHunk {
  /** The hunk's lines before the change (context and removed lines), each ending in `\n` unless marked otherwise. */
  readonly oldText: string;
  /** The hunk's lines after the change (context and added lines). */
  readonly newText: string;
}

export interface PatchFile {
  /** The paths of the `---` and `+++` lines as written (`a/`/`b/` prefixes kept); null for `/dev/null`. */
  readonly oldPath: string | null;
  readonly newPath: string | null;
  readonly hunks: readonly PatchHunk[];
  /** This file's part of the patch text. */
  readonly text: string;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

function headerPath(line: string): string | null {
  // A path may be followed by a tab and a timestamp (diff -u).
  const path = line.slice(4).split("\t")[0] ?? "";
  return path === "/dev/null" ? null : path;
}

interface OpenFile {
  oldPath: string | null;
  newPath: string | null;
  hunks: PatchHunk[];
  lines: string[];
}

/**
 * The files of a unified (git) patch with their hunks, or undefined when the text has no
 * `---`/`+++` file with a well-formed hunk. A hunk whose line counts do not match its lines
 * makes the whole patch unreadable (undefined): a half-read patch would show a wrong diff.
 */
export function parseGitPatch(text: string): PatchFile[] | undefined {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const files: OpenFile[] = [];
  let current: OpenFile | undefined;
  let preamble: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (line.startsWith("--- ") && lines[i + 1]?.startsWith("+++ ")) {
      current = {
        oldPath: headerPath(line),
        newPath: headerPath(lines[i + 1] as string),
        hunks: [],
        lines: [...preamble, line, lines[i + 1] as string],
      };
      preamble = [];
      files.push(current);
      i += 2;
      continue;
    }
    const hunk = HUNK.exec(line);
    if (hunk !== null && current !== undefined) {
      let oldLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      let newLeft = hunk[4] === undefined ? 1 : Number(hunk[4]);
      const before: string[] = [];
      const after: string[] = [];
      current.lines.push(line);
      i++;
      let last: "old" | "new" | "both" | undefined;
      while (i < lines.length && (oldLeft > 0 || newLeft > 0 || lines[i]?.startsWith("\\"))) {
        const body = lines[i] as string;
        const mark = body[0] ?? " ";
        const rest = body.slice(1);
        if (mark === "\\") {
          // "\ No newline at end of file": the line before has no newline on its side(s).
          if (last === "old" || last === "both") before.push(before.pop()?.slice(0, -1) ?? "");
          if (last === "new" || last === "both") after.push(after.pop()?.slice(0, -1) ?? "");
        } else if (mark === " ") {
          before.push(`${rest}\n`);
          after.push(`${rest}\n`);
          oldLeft--;
          newLeft--;
          last = "both";
        } else if (mark === "-") {
          before.push(`${rest}\n`);
          oldLeft--;
          last = "old";
        } else if (mark === "+") {
          after.push(`${rest}\n`);
          newLeft--;
          last = "new";
        } else {
          return undefined;
        }
        current.lines.push(body);
        i++;
      }
      if (oldLeft !== 0 || newLeft !== 0) return undefined;
      current.hunks.push({ oldText: before.join(""), newText: after.join("") });
      continue;
    }
    // A header line of the next file (`diff --git`, `index`, modes) or of this one.
    if (line.startsWith("diff ")) current = undefined;
    if (current === undefined) preamble.push(line);
    else current.lines.push(line);
    i++;
  }
  const read = files.filter((f) => f.hunks.length > 0);
  if (read.length === 0) return undefined;
  return files.map(({ lines: fileLines, ...file }) => ({ ...file, text: `${fileLines.join("\n")}\n` }));
}

/** Whether a patch path (`a/src/x.ts`, `b/...`, `a/abs/path` for `/abs/path`, or as is) names `path`. */
export function patchPathNames(patchPath: string | null, path: string): boolean {
  if (patchPath === null) return false;
  if (patchPath === path) return true;
  const unprefixed = /^[ab]\//.test(patchPath) ? patchPath.slice(2) : patchPath;
  // `a${path}` for an absolute path, or a path relative to the working directory.
  return `/${unprefixed}` === path || unprefixed === path || path.endsWith(`/${unprefixed}`);
}
