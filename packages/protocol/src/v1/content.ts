/**
 * Mappings of tool calls between v1 and v2 that both directions share: tool call content (v1
 * diffs carry whole texts, v2 diffs a change list and an optional patch) and the fields of a
 * tool call update (v2 adds `capabilities`).
 */
import type * as V2 from "../generated/types.js";
import type * as V1 from "../generated/v1/types.js";

/**
 * v1 tool call content made from v2 content: v1's shape, with a `content` block as v2 gave it
 * (v2's blocks only widen v1's enums; a v1 peer reads an unknown value as it reads an unknown field).
 */
export type ProjectedToolCallContent = (V2.Content & { type: "content" }) | (V1.Diff & { type: "diff" });

/** A v1 tool call update made from a v2 one: v1's fields (no `capabilities`), kind and status as v2 gave them. */
export type ProjectedToolCall = Omit<V2.ToolCallUpdate, "capabilities" | "content"> & {
  content?: ProjectedToolCallContent[] | null;
};

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

function pathOf(change: V2.DiffChange | undefined): string | undefined {
  return change !== undefined && "path" in change && typeof change.path === "string" ? change.path : undefined;
}

/**
 * v2 tool call content → v1, or undefined when v1 cannot carry it: a v2 terminal is the agent's
 * own (display only) while a v1 terminal is one the client created, so it is left out, as are
 * extension variants. A diff whose patch is a whole-file patch becomes a v1 diff; any other
 * diff becomes its patch text (or its change list) as a text content block.
 */
export function toolContentToV1(content: V2.ToolCallContent): ProjectedToolCallContent | undefined {
  switch (content.type) {
    case "content":
      return content;
    case "diff": {
      const path = pathOf(content.changes[0]);
      const whole = content.patch?.text === undefined ? undefined : parseWholeFilePatch(content.patch.text);
      if (content.changes.length === 1 && path !== undefined && whole !== undefined)
        return { type: "diff", path, oldText: whole.oldText, newText: whole.newText };
      const text = content.patch?.text ?? content.changes.map((c) => `${c.operation} ${pathOf(c) ?? ""}`).join("\n");
      return { type: "content", content: { type: "text", text } };
    }
    default:
      return undefined;
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

/** v2 tool call update fields → v1: content mapped (what v1 cannot carry left out), capabilities dropped. */
export function toolCallToV1(v2: V2.ToolCallUpdate): ProjectedToolCall {
  const { capabilities: _capabilities, content, ...fields } = v2;
  const toolCall: ProjectedToolCall = { ...fields };
  if (Array.isArray(content)) toolCall.content = content.flatMap((c) => toolContentToV1(c) ?? []);
  else if (content === null) toolCall.content = null;
  return toolCall;
}
