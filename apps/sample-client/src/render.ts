/**
 * Rendering a session snapshot as terminal text. Pure: snapshot in, lines out, no I/O.
 *
 * The live view prints the timeline in order. An entry is printed for good ("committed") once
 * it can no longer change in a way worth showing; until then it is part of the live region that
 * is redrawn. Plans float: shown in the live footer while in progress, committed once done.
 */

import type {
  MessageEntry,
  PlanEntry,
  SessionSnapshot,
  TerminalEntry,
  TimelineEntry,
  ToolCallEntry,
} from "@acp-kit/client/store";
import type { ContentBlock, RequestPermissionRequest, ToolCallContent } from "@acp-kit/protocol/types";
import { errorText } from "./failure.js";
import { type Style, stripAnsi } from "./style.js";

export interface RenderOptions {
  style: Style;
  /** Lines of terminal output shown per terminal (the tail). Default 12. */
  terminalLines?: number;
  /** Lines of a diff shown. Default 24. */
  diffLines?: number;
}

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

// ---- content ------------------------------------------------------------------------------

/** One content block as text (non-text blocks as a bracketed summary). */
export function blockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
      return `[image ${block.mimeType}]`;
    case "audio":
      return `[audio ${block.mimeType}]`;
    case "resource_link":
      return `[${block.title ?? block.name}](${block.uri})`;
    case "resource": {
      const resource = block.resource as { uri: string; text?: string };
      return typeof resource.text === "string" ? `[${resource.uri}]\n${resource.text}` : `[resource ${resource.uri}]`;
    }
    default:
      return `[${String((block as { type: unknown }).type)}]`;
  }
}

export function contentText(content: readonly ContentBlock[]): string {
  return content.map(blockText).join("");
}

// Control characters other than tab and newline (`\r` is handled before).
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/**
 * Terminal output bytes as printable lines: UTF-8 decoded (an incomplete sequence at the end is
 * dropped while the process runs), escape sequences removed, `\r` handled as a return to the
 * start of the line, other control characters dropped.
 */
export function terminalLines(output: Uint8Array, running: boolean): string[] {
  let text = new TextDecoder("utf-8").decode(output);
  if (running) text = text.replace(/\uFFFD+$/, "");
  text = stripAnsi(text).replace(/\r\n/g, "\n");
  const lines = text.split("\n").map((line) => {
    const parts = line.split("\r");
    // `\r` returns to column 0: what is visible is the last non-empty overwrite.
    const visible = parts.filter((part) => part.length > 0).at(-1) ?? "";
    return visible.replace(UNPRINTABLE, "").replace(/\t/g, "  ");
  });
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

// ---- entries ------------------------------------------------------------------------------

function indent(lines: readonly string[], prefix: string): string[] {
  return lines.map((line) => `${prefix}${line}`);
}

export function renderMessage(entry: MessageEntry, options: RenderOptions): string[] {
  const { style } = options;
  const text = contentText(entry.content).replace(/\s+$/, "");
  switch (entry.kind) {
    case "user":
      return text
        .split("\n")
        .map((line, i) => (i === 0 ? style.bold(style.cyan(`› ${line}`)) : style.cyan(`  ${line}`)));
    case "thought":
      return text.length === 0
        ? []
        : text.split("\n").map((line, i) => style.dim(style.italic(`${i === 0 ? "✻ " : "  "}${line}`)));
    default:
      return text.length === 0 ? [] : text.split("\n");
  }
}

const STATUS_ICONS: Record<string, (s: Style) => string> = {
  pending: (s) => s.dim("○"),
  in_progress: (s) => s.yellow("◐"),
  paused: (s) => s.yellow("‖"),
  completed: (s) => s.green("✔"),
  failed: (s) => s.red("✘"),
  cancelled: (s) => s.dim("⊘"),
};

export function statusIcon(status: string, style: Style): string {
  return (STATUS_ICONS[status] ?? STATUS_ICONS.in_progress)!(style);
}

function diffLines(item: Extract<ToolCallContent, { type: "diff" }>, options: RenderOptions): string[] {
  const { style } = options;
  const lines: string[] = [];
  for (const change of item.changes) {
    const c = change as { operation: string; path?: string; oldPath?: string };
    lines.push(
      style.bold(c.oldPath ? `${c.operation} ${c.oldPath} → ${c.path}` : `${c.operation} ${c.path ?? ""}`.trimEnd()),
    );
  }
  const patch = item.patch as { text?: unknown } | null | undefined;
  if (typeof patch?.text === "string") {
    const body = patch.text
      .split("\n")
      .filter((line) => !/^(diff --git |--- |\+\+\+ |index )/.test(line) && line.length > 0);
    const max = options.diffLines ?? 24;
    for (const line of body.slice(0, max)) {
      lines.push(
        line.startsWith("+")
          ? style.green(line)
          : line.startsWith("-")
            ? style.red(line)
            : line.startsWith("@@")
              ? style.cyan(line)
              : line,
      );
    }
    if (body.length > max) lines.push(style.dim(`… ${body.length - max} more lines`));
  }
  return lines;
}

export function renderTerminal(entry: TerminalEntry | undefined, terminalId: string, options: RenderOptions): string[] {
  const { style } = options;
  const running = entry?.exitStatus === undefined;
  const header = style.dim(`$ ${entry?.command ?? terminalId}`);
  const all = entry ? terminalLines(entry.output, running) : [];
  const max = options.terminalLines ?? 12;
  const shown = all.slice(-max);
  const lines = [header];
  if (all.length > shown.length) lines.push(style.dim(`… ${all.length - shown.length} earlier lines`));
  lines.push(...shown.map((line) => `${style.dim("│")} ${line}`));
  if (entry?.exitStatus) {
    const { exitCode, signal } = entry.exitStatus;
    const how = signal ? `killed by ${signal}` : `exit ${exitCode ?? "?"}`;
    lines.push(exitCode === 0 && !signal ? style.dim(`└ ${how}`) : style.red(`└ ${how}`));
  }
  return lines;
}

export function renderToolCall(entry: ToolCallEntry, snapshot: SessionSnapshot, options: RenderOptions): string[] {
  const { style } = options;
  const kind = KNOWN_KINDS.has(entry.kind) ? entry.kind : "other";
  const title = entry.title ?? entry.name ?? entry.toolCallId;
  const lines = [`${statusIcon(entry.status, style)} ${style.bold(title)} ${style.dim(`(${kind}, ${entry.status})`)}`];
  for (const location of entry.locations)
    lines.push(style.dim(`  ↳ ${location.path}${location.line ? `:${location.line}` : ""}`));
  for (const item of entry.content) {
    if (item.type === "content")
      lines.push(...indent(contentText([item.content]).replace(/\s+$/, "").split("\n"), "  "));
    else if (item.type === "diff") lines.push(...indent(diffLines(item, options), "  "));
    else if (item.type === "terminal")
      lines.push(...indent(renderTerminal(snapshot.terminals.get(item.terminalId), item.terminalId, options), "  "));
    else lines.push(style.dim(`  [${String(item.type)} content]`));
  }
  return lines;
}

const KNOWN_KINDS = new Set([
  "read",
  "edit",
  "delete",
  "move",
  "search",
  "execute",
  "think",
  "fetch",
  "switch_mode",
  "other",
]);

const PLAN_MARKS: Record<string, (s: Style) => string> = {
  completed: (s) => s.green("[x]"),
  in_progress: (s) => s.yellow("[~]"),
  cancelled: (s) => s.dim("[-]"),
  pending: () => "[ ]",
};

export function renderPlan(entry: PlanEntry, options: RenderOptions): string[] {
  const { style } = options;
  const plan = entry.plan as { type: string; entries?: { content: string; status: string }[] };
  if (plan.type !== "items" || !Array.isArray(plan.entries)) return [style.dim(`Plan (${plan.type})`)];
  return [
    style.bold("Plan"),
    ...plan.entries.map((item) => {
      const mark = (PLAN_MARKS[item.status] ?? PLAN_MARKS.pending)!(style);
      const text = item.status === "completed" || item.status === "cancelled" ? style.dim(item.content) : item.content;
      return `  ${mark} ${text}`;
    }),
  ];
}

/** The ids of terminals some tool call shows (they are rendered inside that call). */
export function embeddedTerminals(snapshot: SessionSnapshot): Set<string> {
  const ids = new Set<string>();
  for (const call of snapshot.toolCalls.values())
    for (const item of call.content) if (item.type === "terminal") ids.add(item.terminalId);
  return ids;
}

/** The lines of one timeline entry (current state). Terminals shown by a tool call render there. */
export function renderEntry(entry: TimelineEntry, snapshot: SessionSnapshot, options: RenderOptions): string[] {
  switch (entry.type) {
    case "message":
      return renderMessage(snapshot.messages[entry.kind].get(entry.messageId) ?? entry, options);
    case "tool_call":
      return renderToolCall(snapshot.toolCalls.get(entry.toolCallId) ?? entry, snapshot, options);
    case "terminal":
      return embeddedTerminals(snapshot).has(entry.terminalId)
        ? []
        : renderTerminal(snapshot.terminals.get(entry.terminalId) ?? entry, entry.terminalId, options);
    case "plan":
      return renderPlan(snapshot.plans.get(entry.planId) ?? entry, options);
    case "compaction":
      return [options.style.dim(`(conversation compacted: ${entry.status})`)];
    default:
      return [options.style.dim(`(${entry.update.sessionUpdate} update)`)];
  }
}

// ---- what is final -------------------------------------------------------------------------

function planDone(entry: PlanEntry): boolean {
  const plan = entry.plan as { type: string; entries?: { status: string }[] };
  if (plan.type !== "items" || !Array.isArray(plan.entries)) return true;
  return plan.entries.every((item) => item.status === "completed" || item.status === "cancelled");
}

const FINAL_TOOL_STATUSES = new Set(["completed", "failed", "cancelled"]);

/**
 * Whether the entry at `index` can be printed for good. While the session is busy: a message is
 * final once something else follows it, a tool call once it reached a final status (and its
 * terminals exited), a terminal once it exited. Once idle, everything is final.
 */
export function isEntryFinal(snapshot: SessionSnapshot, index: number): boolean {
  if (snapshot.state.state === "idle") return true;
  const entry = snapshot.timeline[index];
  if (entry === undefined) return false;
  switch (entry.type) {
    case "message": {
      if (entry.kind === "user") return true;
      return snapshot.timeline.slice(index + 1).some((next) => next.type !== "plan");
    }
    case "tool_call": {
      const call = snapshot.toolCalls.get(entry.toolCallId) ?? entry;
      if (!FINAL_TOOL_STATUSES.has(call.status)) return false;
      return call.content.every(
        (item) => item.type !== "terminal" || snapshot.terminals.get(item.terminalId)?.exitStatus !== undefined,
      );
    }
    case "terminal":
      return (snapshot.terminals.get(entry.terminalId) ?? entry).exitStatus !== undefined;
    case "plan":
      return planDone(snapshot.plans.get(entry.planId) ?? entry);
    case "compaction":
      return entry.status !== "in_progress";
    default:
      return true;
  }
}

/**
 * Splits the timeline after `from` (already committed) into what can be committed now and what
 * stays live. Plans that are not done do not hold back the entries after them: they stay live
 * (rendered in the footer) and are committed on their own once done.
 */
export function partitionTimeline(
  snapshot: SessionSnapshot,
  committed: ReadonlySet<number>,
): { commit: number[]; live: number[] } {
  const commit: number[] = [];
  const finishedPlans: number[] = [];
  const live: number[] = [];
  let blocked = false;
  snapshot.timeline.forEach((entry, index) => {
    if (committed.has(index)) return;
    const final = isEntryFinal(snapshot, index);
    if (entry.type === "plan") {
      (final ? finishedPlans : live).push(index);
      return;
    }
    if (!blocked && final) commit.push(index);
    else {
      blocked = true;
      live.push(index);
    }
  });
  // A finished plan goes after the entries committed with it: it is the latest news.
  return { commit: [...commit, ...finishedPlans], live };
}

// ---- footer, permission prompt, turn summary -----------------------------------------------

export function renderFooter(snapshot: SessionSnapshot, frame: number, options: RenderOptions): string[] {
  const { style } = options;
  const state = snapshot.state.state;
  if (state === "idle") return [];
  const spinner = style.cyan(SPINNER[frame % SPINNER.length] as string);
  const usage = snapshot.usage ? style.dim(` · ${formatUsage(snapshot.usage)}`) : "";
  if (state === "requires_action") return [`${style.yellow("?")} ${style.yellow("Waiting for your answer")}${usage}`];
  const label = state === "running" ? "Working" : `Busy (${snapshot.state.rawState})`;
  return [`${spinner} ${label}…${usage} ${style.dim("(ctrl-c to cancel)")}`];
}

export function formatUsage(usage: NonNullable<SessionSnapshot["usage"]>): string {
  const tokens = `${usage.used.toLocaleString("en-US")}/${usage.size.toLocaleString("en-US")} tokens`;
  if (!usage.cost) return tokens;
  const { amount, currency } = usage.cost;
  return `${tokens} · ${currency === "USD" ? `$${amount}` : `${amount} ${currency}`}`;
}

/**
 * The end-of-turn line: stop reason, error, usage. `result` is the turn's own result (with two
 * queued prompts the session may already run the next one); `label` names which work ended.
 */
export function renderTurnEnd(
  snapshot: SessionSnapshot,
  options: RenderOptions,
  result: { stopReason?: string; error?: { code: number; message: string; data?: unknown } } = snapshot.state,
  label?: string,
): string {
  const { style } = options;
  const reason = result.stopReason ?? "stop reason not reported";
  const usage = snapshot.usage ? ` · ${formatUsage(snapshot.usage)}` : "";
  const of = label === undefined ? "" : ` · ${label}`;
  if (reason === "end_turn") return style.dim(`— ${reason}${of}${usage}`);
  if (reason === "error") {
    const error = result.error;
    return style.red(`— error${error ? `: ${errorText(error)}` : ""}${of}${usage}`);
  }
  return style.yellow(`— ${reason}${of}${usage}`);
}

export function renderPermissionPrompt(request: RequestPermissionRequest, options: RenderOptions): string[] {
  const { style } = options;
  const lines = [`${style.yellow("?")} ${style.bold(request.title)}`];
  if (request.description) lines.push(`  ${request.description}`);
  const subject = request.subject as { type?: string; command?: string; cwd?: string } | null | undefined;
  if (subject?.type === "command") lines.push(style.dim(`  $ ${subject.command} (in ${subject.cwd})`));
  request.options.forEach((option, i) => {
    lines.push(`  ${style.bold(`[${i + 1}]`)} ${option.name} ${style.dim(`· ${option.kind}`)}`);
  });
  lines.push(style.dim(`  press 1-${request.options.length}, or ctrl-c to cancel the turn`));
  return lines;
}
