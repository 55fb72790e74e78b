/** A v2 diff's git patch read back into v1 diffs: one per hunk, what is left as text. */
import { describe, expect, it } from "vitest";
import type * as V2 from "../generated/types.js";
import { toolContentToV1, wholeFilePatch } from "./content.js";
import { parseGitPatch } from "./git-patch.js";

const text = (t: string) => ({ type: "content", content: { type: "text", text: t } });

describe("a v2 diff reaches v1 as diffs where its patch reads", () => {
  const cases: [string, V2.DiffChange[], string | undefined, unknown[]][] = [
    [
      "a one-line hunk without counts (the sample agent's edit)",
      [{ operation: "modify", path: "/w/src/greeting.ts" }],
      "diff --git /w/src/greeting.ts /w/src/greeting.ts\n--- /w/src/greeting.ts\n+++ /w/src/greeting.ts\n@@ -1 +1 @@\n-old\n+new\n",
      [{ type: "diff", path: "/w/src/greeting.ts", oldText: "old\n", newText: "new\n" }],
    ],
    [
      "two hunks with context: one v1 diff each",
      [{ operation: "modify", path: "/w/a.ts" }],
      "--- a/a.ts\n+++ b/a.ts\n@@ -1,2 +1,2 @@\n ctx\n-x\n+y\n@@ -10,1 +10,2 @@\n z\n+added\n",
      [
        { type: "diff", path: "/w/a.ts", oldText: "ctx\nx\n", newText: "ctx\ny\n" },
        { type: "diff", path: "/w/a.ts", oldText: "z\n", newText: "z\nadded\n" },
      ],
    ],
    [
      "an added file: oldText null",
      [{ operation: "add", path: "/w/new.ts" }],
      wholeFilePatch("/w/new.ts", null, "one\ntwo\n"),
      [{ type: "diff", path: "/w/new.ts", oldText: null, newText: "one\ntwo\n" }],
    ],
    [
      "no newline at end of file",
      [{ operation: "modify", path: "/w/n.txt" }],
      "--- a/n.txt\n+++ b/n.txt\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n",
      [{ type: "diff", path: "/w/n.txt", oldText: "a", newText: "b" }],
    ],
    [
      "two files matched by path, a move left as text",
      [
        { operation: "modify", path: "/w/x.ts" },
        { operation: "modify", path: "/w/y.ts" },
        { operation: "move", oldPath: "/w/m.ts", path: "/w/n.ts" },
      ],
      "diff --git a/y.ts b/y.ts\n--- a/y.ts\n+++ b/y.ts\n@@ -1 +1 @@\n-1\n+2\ndiff --git a/x.ts b/x.ts\n--- a/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n-3\n+4\n",
      [
        { type: "diff", path: "/w/x.ts", oldText: "3\n", newText: "4\n" },
        { type: "diff", path: "/w/y.ts", oldText: "1\n", newText: "2\n" },
        text("move /w/m.ts -> /w/n.ts"),
      ],
    ],
    [
      "a hunk whose counts do not match its lines: the patch as text",
      [{ operation: "modify", path: "/w/a.ts" }],
      "--- a/a.ts\n+++ b/a.ts\n@@ -1,3 +1,1 @@\n-x\n+y\n",
      [text("--- a/a.ts\n+++ b/a.ts\n@@ -1,3 +1,1 @@\n-x\n+y\n")],
    ],
    [
      "no patch: the change list",
      [{ operation: "delete", path: "/w/gone.ts" }],
      undefined,
      [text("delete /w/gone.ts")],
    ],
  ];
  it.each(cases)("%s", (_name, changes, patch, expected) => {
    const diff: V2.ToolCallContent =
      patch === undefined
        ? { type: "diff", changes }
        : { type: "diff", changes, patch: { format: "git_patch", text: patch } };
    expect(toolContentToV1(diff)).toEqual(expected);
  });

  it("keeps each file's part of the patch", () => {
    const files = parseGitPatch("diff --git a/p b/p\nindex 1..2\n--- a/p\n+++ b/p\n@@ -1 +1 @@\n-a\n+b\n");
    expect(files?.map((f) => [f.oldPath, f.newPath, f.text])).toEqual([
      ["a/p", "b/p", "diff --git a/p b/p\nindex 1..2\n--- a/p\n+++ b/p\n@@ -1 +1 @@\n-a\n+b\n"],
    ]);
  });
});
