/** HTML for the rendered session: messages, thoughts, tool calls (diffs, locations), plans, terminals, usage. */
import type { SessionSnapshot, TimelineEntry } from "@acp-kit/client/store";
import { textOf } from "@acp-kit/client/store";

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  );
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal output carries ANSI escapes
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

function patchHtml(text: string): string {
  return text
    .split("\n")
    .map((line) => {
      const cls =
        line.startsWith("+") && !line.startsWith("+++")
          ? "add"
          : line.startsWith("-") && !line.startsWith("---")
            ? "del"
            : "";
      return `<span class="${cls}">${escapeHtml(line)}</span>`;
    })
    .join("\n");
}

function toolContentHtml(content: readonly unknown[]): string {
  return content
    .map((item) => {
      const c = item as {
        type?: string;
        content?: unknown;
        changes?: { operation?: string; path?: string; oldPath?: string }[];
        patch?: { text?: string };
        terminalId?: string;
      };
      if (c.type === "content") return `<div class="tool-text">${escapeHtml(textOf([c.content as never]))}</div>`;
      if (c.type === "diff") {
        const changes = (c.changes ?? [])
          .map(
            (ch) => `<li>${escapeHtml(`${ch.operation} ${ch.oldPath ? `${ch.oldPath} → ` : ""}${ch.path ?? ""}`)}</li>`,
          )
          .join("");
        const patch = c.patch?.text ? `<pre class="diff">${patchHtml(c.patch.text)}</pre>` : "";
        return `<div class="tool-diff"><ul>${changes}</ul>${patch}</div>`;
      }
      if (c.type === "terminal") return `<div class="tool-term">terminal ${escapeHtml(String(c.terminalId))}</div>`;
      return `<div class="tool-unknown">${escapeHtml(String(c.type))} content</div>`;
    })
    .join("");
}

function entryHtml(entry: TimelineEntry): string {
  switch (entry.type) {
    case "message":
      return `<div class="msg ${entry.kind}" data-kind="${entry.kind}"><span class="who">${entry.kind}</span><div class="text">${escapeHtml(textOf(entry.content))}</div></div>`;
    case "tool_call": {
      const locations = entry.locations
        .map((l) => `<li>${escapeHtml(`${l.path}${l.line ? `:${l.line}` : ""}`)}</li>`)
        .join("");
      return `<div class="tool" data-status="${escapeHtml(entry.status)}"><div class="tool-head"><span class="status">${escapeHtml(entry.status)}</span> <b>${escapeHtml(entry.title ?? entry.name ?? entry.toolCallId)}</b> <span class="kind">${escapeHtml(entry.kind)}</span></div>${locations ? `<ul class="locations">${locations}</ul>` : ""}${toolContentHtml(entry.content)}</div>`;
    }
    case "terminal": {
      const output = new TextDecoder().decode(entry.output).replace(ANSI, "");
      const exit = entry.exitStatus ? ` exited ${escapeHtml(JSON.stringify(entry.exitStatus))}` : " running";
      return `<div class="terminal"><div class="term-head">$ ${escapeHtml(entry.command ?? entry.terminalId)}${exit}</div><pre>${escapeHtml(output)}</pre></div>`;
    }
    case "plan": {
      const plan = entry.plan as { type: string; entries?: { content: string; status: string; priority: string }[] };
      const items = (plan.entries ?? [])
        .map(
          (e) =>
            `<li class="plan-${escapeHtml(e.status)}">${escapeHtml(e.content)} <span class="kind">${escapeHtml(e.status)}</span></li>`,
        )
        .join("");
      return `<div class="plan"><b>Plan</b><ul>${items}</ul></div>`;
    }
    case "compaction":
      return `<div class="notice">compaction ${escapeHtml(entry.status)}</div>`;
    default:
      return `<div class="notice">unknown update ${escapeHtml(entry.update.sessionUpdate)}</div>`;
  }
}

export function sessionHtml(snapshot: SessionSnapshot): string {
  return snapshot.timeline.map(entryHtml).join("");
}

export function statusText(snapshot: SessionSnapshot): string {
  const { state } = snapshot;
  const usage = snapshot.usage
    ? ` · usage ${snapshot.usage.used}/${snapshot.usage.size}${snapshot.usage.cost ? ` (${snapshot.usage.cost.amount} ${snapshot.usage.cost.currency})` : ""}`
    : "";
  return `${state.state}${state.stopReason ? ` (${state.stopReason})` : ""}${usage}`;
}
