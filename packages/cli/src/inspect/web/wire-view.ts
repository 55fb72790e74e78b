/** The live wire log: every payload in and out, filterable by text and direction, bounded. */
import type { WireEvent } from "@acp-kit/protocol/jsonrpc";
import { escapeHtml } from "./render.js";

const MAX_ROWS = 2000;

interface Row {
  event: WireEvent;
  summary: string;
}

function summarize(event: WireEvent): string {
  const m = event.message as
    | { method?: string; id?: unknown; params?: { update?: { sessionUpdate?: string } }; error?: unknown }
    | undefined;
  if (m === undefined) return "(not JSON)";
  if (Array.isArray(m)) return `batch of ${m.length}`;
  if (m.method === "session/update") return `session/update ${m.params?.update?.sessionUpdate ?? ""}`;
  if (m.method) return `${m.method}${m.id !== undefined ? ` #${String(m.id)}` : ""}`;
  return `${m.error ? "error" : "result"} #${String(m.id)}${event.method ? ` (${event.method})` : ""}`;
}

export class WireView {
  readonly #rows: Row[] = [];
  readonly #list: HTMLElement;
  readonly #filter: HTMLInputElement;
  readonly #direction: HTMLSelectElement;
  readonly #count: HTMLElement;
  #scheduled = false;

  constructor(root: HTMLElement) {
    this.#list = root.querySelector("#wire-list") as HTMLElement;
    this.#filter = root.querySelector("#wire-filter") as HTMLInputElement;
    this.#direction = root.querySelector("#wire-direction") as HTMLSelectElement;
    this.#count = root.querySelector("#wire-count") as HTMLElement;
    this.#filter.addEventListener("input", () => this.render());
    this.#direction.addEventListener("change", () => this.render());
  }

  add(event: WireEvent): void {
    this.#rows.push({ event, summary: summarize(event) });
    if (this.#rows.length > MAX_ROWS) this.#rows.shift();
    if (!this.#scheduled) {
      this.#scheduled = true;
      requestAnimationFrame(() => {
        this.#scheduled = false;
        this.render();
      });
    }
  }

  render(): void {
    const text = this.#filter.value.trim().toLowerCase();
    const direction = this.#direction.value;
    const shown = this.#rows.filter(
      (r) =>
        (direction === "all" || r.event.direction === direction) &&
        (text === "" || r.event.payload.toLowerCase().includes(text)),
    );
    this.#count.textContent = `${shown.length} of ${this.#rows.length}`;
    this.#list.innerHTML = shown
      .map(({ event, summary }) => {
        const time = new Date(event.time).toISOString().slice(11, 23);
        const arrow = event.direction === "out" ? "→ agent" : "← agent";
        const took = event.durationMs !== undefined ? ` ${event.durationMs.toFixed(1)} ms` : "";
        return `<details class="wire ${event.direction}"><summary><span class="t">${time}</span> <span class="dir">${arrow}</span> ${escapeHtml(summary)} <span class="bytes">${event.bytes} B${took}</span></summary><pre>${escapeHtml(JSON.stringify(event.message ?? event.payload, null, 2))}</pre></details>`;
      })
      .join("");
    this.#list.scrollTop = this.#list.scrollHeight;
  }
}
