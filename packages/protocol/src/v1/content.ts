/**
 * Mappings between v1 and v2 values that both directions share: tool call content (v1 diffs
 * carry whole texts, v2 diffs a change list and an optional patch), config options (v1 `id`,
 * v2 `configId`) and v1 session modes, exposed in v2 as a `select` config option.
 */
import type * as V2 from "../generated/types.js";
import type * as V1 from "../generated/v1/types.js";

/** The config option a v1 agent's session modes appear as. */
export const MODE_CONFIG_ID = "mode";

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
  if (content.type !== "diff") return content as V2.ToolCallContent;
  const { path, oldText, newText, _meta } = content;
  const change = { operation: oldText == null ? "add" : "modify", path } as V2.DiffChange;
  const diff = {
    type: "diff",
    changes: [change],
    patch: { format: "git_patch", text: wholeFilePatch(path, oldText, newText) },
  } as V2.ToolCallContent;
  return _meta == null ? diff : ({ ...diff, _meta } as V2.ToolCallContent);
}

/**
 * v2 tool call content → v1, or undefined when v1 cannot carry it: a v2 terminal is the agent's
 * own (display only) while a v1 terminal is one the client created, so it is left out, as are
 * extension variants. A diff whose patch is a whole-file patch becomes a v1 diff; any other
 * diff becomes its patch text (or its change list) as a text content block.
 */
export function toolContentToV1(content: V2.ToolCallContent): V1.ToolCallContent | undefined {
  const type = (content as { type: string }).type;
  if (type === "content") return content as V1.ToolCallContent;
  if (type !== "diff") return undefined;
  const diff = content as { changes: V2.DiffChange[]; patch?: V2.DiffPatch | null };
  const path = (diff.changes[0] as { path?: string } | undefined)?.path;
  const whole = diff.patch?.text === undefined ? undefined : parseWholeFilePatch(diff.patch.text);
  if (diff.changes.length === 1 && path !== undefined && whole !== undefined)
    return { type: "diff", path, oldText: whole.oldText, newText: whole.newText };
  const text =
    diff.patch?.text ??
    diff.changes
      .map((c) => `${(c as { operation: string }).operation} ${(c as { path?: string }).path ?? ""}`)
      .join("\n");
  return { type: "content", content: { type: "text", text } };
}

/** v1 config option (`id`) → v2 (`configId`). */
export function configOptionToV2(option: V1.SessionConfigOption): V2.SessionConfigOption {
  const { id, ...rest } = option as V1.SessionConfigOption & { options?: unknown };
  const mapped = { configId: id, ...rest } as Record<string, unknown>;
  if (Array.isArray(rest.options)) {
    mapped.options = rest.options.map((entry: Record<string, unknown>) => {
      if (!("group" in entry)) return entry;
      const { group, ...groupRest } = entry;
      return { groupId: group, ...groupRest };
    });
  }
  return mapped as V2.SessionConfigOption;
}

/** v2 config option → v1, or undefined for a type v1 does not know. */
export function configOptionToV1(option: V2.SessionConfigOption): V1.SessionConfigOption | undefined {
  const { configId, ...rest } = option as V2.SessionConfigOption & { options?: unknown };
  if (rest.type !== "select" && rest.type !== "boolean") return undefined;
  const mapped = { id: configId, ...rest } as Record<string, unknown>;
  if (Array.isArray(rest.options)) {
    mapped.options = rest.options.map((entry: Record<string, unknown>) => {
      if (!("groupId" in entry)) return entry;
      const { groupId, ...groupRest } = entry;
      return { group: groupId, ...groupRest };
    });
  }
  return mapped as unknown as V1.SessionConfigOption;
}

/** v1 session modes as the v2 `select` option {@link MODE_CONFIG_ID} (category `mode`). */
export function modesToConfigOption(modes: V1.SessionModeState): V2.SessionConfigOption {
  return {
    configId: MODE_CONFIG_ID,
    name: "Mode",
    category: "mode",
    type: "select",
    currentValue: modes.currentModeId,
    options: modes.availableModes.map((mode) =>
      mode.description == null
        ? { value: mode.id, name: mode.name }
        : { value: mode.id, name: mode.name, description: mode.description },
    ),
  } as V2.SessionConfigOption;
}
