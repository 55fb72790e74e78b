/**
 * Mappings of tool calls between v1 and v2 that both directions share: tool call content (v1
 * diffs carry whole texts, v2 diffs a change list and an optional patch) and the fields of a
 * tool call update (v2 adds `capabilities`).
 */
import type * as V2 from "../generated/types.js";
import type * as V1 from "../generated/v1/types.js";
import { toolCallStatusToV1, toolKindToV1 } from "./closed-values.js";
import { contentBlockToV1 } from "./content-block.js";
import { parseGitPatch, patchPathNames } from "./git-patch.js";

/** A v1 tool call update made from a v2 one: v1's fields and values only (see `toolCallToV1`). */
export type ProjectedToolCall = V1.ToolCallUpdate;

/** v1 tool call content made from v2 content. */
export type ProjectedToolCallContent = V1.ToolCallContent;

function lines(text: string): string[] {
  if (text === "") return [];
  const split = text.split("\n");
  if (split.at(-1) === "") split.pop();
  return split;
}

/** A git-style patch replacing the whole file: the one patch that carries v1's full texts. */
export function wholeFilePatch(path: string, oldText: string | null | undefined, newText: string): string {
  const before = oldText == null ? [] : lines(oldText);
  const after = lines(newText);
  const from = oldText == null ? "/dev/null" : `a${path}`;
  const header = `--- ${from}\n+++ b${path}\n@@ -${before.length === 0 ? 0 : 1},${before.length} +${after.length === 0 ? 0 : 1},${after.length} @@\n`;
  return header + [...before.map((l) => `-${l}`), ...after.map((l) => `+${l}`)].map((l) => `${l}\n`).join("");
}

/** Reads back a patch made by {@link wholeFilePatch}; undefined for any other patch. */
export function parseWholeFilePatch(text: string): { oldText: string | null; newText: string } | undefined {
  const match = /^--- (\S+)\n\+\+\+ \S+\n@@ -\d+,(\d+) \+\d+,(\d+) @@\n/.exec(text);
  if (match === null) return undefined;
  const body = lines(text.slice(match[0].length));
  const removed = Number(match[2]);
  const added = Number(match[3]);
  if (body.length !== removed + added) return undefined;
  const old = body.slice(0, removed);
  const next = body.slice(removed);
  if (!old.every((l) => l.startsWith("-")) || !next.every((l) => l.startsWith("+"))) return undefined;
  const join = (ls: string[]): string => ls.map((l) => `${l.slice(1)}\n`).join("");
  return { oldText: match[1] === "/dev/null" ? null : join(old), newText: join(next) };
}

/** v1 tool call content → v2: diffs become one change plus a whole-file patch. */
export function toolContentToV2(content: V1.ToolCallContent): V2.ToolCallContent {
  if (content.type !== "diff") return content;
  const { path, oldText, newText, _meta } = content;
  const change: V2.DiffChange = oldText == null ? { operation: "add", path } : { operation: "modify", path };
  const diff: V2.ToolCallContent = {
    type: "diff",
    changes: [change],
    patch: { format: "git_patch", text: wholeFilePatch(path, oldText, newText) },
  };
  return _meta == null ? diff : { ...diff, _meta };
}

function pathOf(change: V2.DiffChange): string | undefined {
  return "path" in change && typeof change.path === "string" ? change.path : undefined;
}

function textContent(text: string): V1.ToolCallContent {
  return { type: "content", content: { type: "text", text } };
}

/**
 * A v2 diff as v1 diffs: each added, modified or deleted file whose part of the `git_patch`
 * reads back becomes one v1 `diff` per hunk (`oldText`/`newText` the hunk's texts, so a
 * whole-file patch gives the whole texts; `oldText: null` for an added file). What is left
 * (moves, copies, binary files, a patch that does not read, no patch) follows as one text
 * block: that part of the patch, else the change list.
 */
function diffToV1(diff: V2.Diff): V1.ToolCallContent[] {
  const files = diff.patch?.format === "git_patch" ? parseGitPatch(diff.patch.text) : undefined;
  const out: V1.ToolCallContent[] = [];
  const rest: V2.DiffChange[] = [];
  const only = diff.changes.length === 1 && files?.length === 1;
  for (const change of diff.changes) {
    const path = pathOf(change);
    const mapped = change.operation === "add" || change.operation === "modify" || change.operation === "delete";
    const file =
      path === undefined || !mapped
        ? undefined
        : files?.find((f) => only || patchPathNames(f.newPath, path) || patchPathNames(f.oldPath, path));
    if (path === undefined || file === undefined || file.hunks.length === 0) {
      rest.push(change);
      continue;
    }
    for (const hunk of file.hunks) {
      const oldText = change.operation === "add" && hunk.oldText === "" ? null : hunk.oldText;
      const v1: V1.ToolCallContent = { type: "diff", path, oldText, newText: hunk.newText };
      out.push(diff._meta == null ? v1 : { ...v1, _meta: diff._meta });
    }
  }
  if (rest.length > 0) {
    const patchText = diff.patch?.text;
    const left =
      files === undefined
        ? patchText
        : files
            .filter((f) =>
              rest.some(
                (c) => patchPathNames(f.newPath, pathOf(c) ?? "") || patchPathNames(f.oldPath, pathOf(c) ?? ""),
              ),
            )
            .map((f) => f.text)
            .join("");
    const list = rest.map((c) => {
      const from = "oldPath" in c && typeof c.oldPath === "string" ? `${c.oldPath} -> ` : "";
      return `${c.operation} ${from}${pathOf(c) ?? ""}`;
    });
    out.push(textContent(left !== undefined && left !== "" ? left : list.join("\n")));
  }
  return out;
}

/**
 * v2 tool call content → v1 (possibly several items, possibly none): a content block in v1
 * form, a diff as v1 diffs (see `diffToV1`). A v2 terminal is the agent's own (display only)
 * while a v1 terminal is one the client created: it has no v1 form here (the session
 * projection shows its output as text); nor do extension variants or extension blocks.
 */
export function toolContentToV1(content: V2.ToolCallContent): V1.ToolCallContent[] {
  switch (content.type) {
    case "content": {
      const block = contentBlockToV1((content as V2.Content).content);
      if (block === undefined) return [];
      const { _meta } = content as V2.Content;
      return [_meta === undefined ? { type: "content", content: block } : { type: "content", content: block, _meta }];
    }
    case "diff":
      return diffToV1(content as V2.Diff);
    default:
      return [];
  }
}

/** v1 tool call fields (`tool_call` or `tool_call_update`, or a permission's tool call) → v2 tool call update fields. */
export function toolCallToV2(v1: V1.ToolCall | V1.ToolCallUpdate): V2.ToolCallUpdate {
  const { content, ...fields } = v1;
  const toolCall: V2.ToolCallUpdate = { ...fields };
  if (Array.isArray(content)) toolCall.content = content.map(toolContentToV2);
  else if (content === null) toolCall.content = null;
  return toolCall;
}

/** v2 tool call update fields → v1: kind and status onto v1's values, content mapped (what v1 cannot carry left out), capabilities dropped. */
export function toolCallToV1(v2: V2.ToolCallUpdate): V1.ToolCallUpdate {
  const { capabilities: _capabilities, content, kind, status, ...fields } = v2;
  const toolCall: V1.ToolCallUpdate = { ...fields };
  if (kind != null) toolCall.kind = toolKindToV1(kind);
  else if (kind === null) toolCall.kind = null;
  if (status != null) toolCall.status = toolCallStatusToV1(status);
  else if (status === null) toolCall.status = null;
  if (Array.isArray(content)) toolCall.content = content.flatMap(toolContentToV1);
  else if (content === null) toolCall.content = null;
  return toolCall;
}
