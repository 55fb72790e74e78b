/**
 * Keeps the terminal in step with a session store: commits finished timeline entries to the
 * scrollback in order, and redraws the live region (unfinished entries, the plan, a permission
 * prompt, the spinner, the line being typed). Rendering itself is the pure `render.ts`.
 */
import type { SessionStore } from "@acp-kit/client/store";
import type { PermissionOption, RequestPermissionRequest } from "@acp-kit/protocol/types";
import { currentValueName } from "./config-value.js";
import type { LiveView } from "./live-view.js";
import {
  partitionTimeline,
  type RenderOptions,
  renderEntry,
  renderFooter,
  renderPermissionPrompt,
  renderTurnEnd,
} from "./render.js";
import type { Style } from "./style.js";

export interface SessionRendererOptions {
  style: Style;
  /** Animate a spinner while the agent works (terminals only). */
  spinner: boolean;
}

const REDRAW_MS = 33;
const SPINNER_MS = 100;

export class SessionRenderer {
  readonly #store: SessionStore;
  readonly #view: LiveView;
  readonly #style: Style;
  readonly #options: RenderOptions;
  readonly #committed = new Set<number>();
  readonly #unsubscribe: () => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #spinner: ReturnType<typeof setInterval> | undefined;
  #frame = 0;
  #noticesShown = 0;
  #title: string | undefined;
  #config: string | undefined;
  #permission: RequestPermissionRequest | undefined;
  #input = "";
  #prompting = false;
  #stopped = false;
  /** Everything is final from now on (see `settle`). */
  #settled = false;

  constructor(store: SessionStore, view: LiveView, options: SessionRendererOptions) {
    this.#store = store;
    this.#view = view;
    this.#style = options.style;
    this.#options = { style: options.style };
    this.#config = this.#configLine();
    this.#unsubscribe = store.subscribe(() => this.#schedule());
    if (options.spinner && view.isLive) {
      this.#spinner = setInterval(() => {
        if (this.#store.getSnapshot().state.state === "idle") return;
        this.#frame++;
        this.#schedule();
      }, SPINNER_MS);
      this.#spinner.unref?.();
    }
  }

  printHeader(text: string): void {
    this.#view.print([this.#style.bold(text), this.#style.dim(this.#config ?? "")].filter((l) => l.length > 0));
  }

  printHelp(snapshot: ReturnType<SessionStore["getSnapshot"]>): void {
    const commands = snapshot.availableCommands.map((c) => `/${c.name}`).join(" ");
    this.#view.print([
      this.#style.dim(`Type a prompt and press Enter.${commands ? ` Agent commands: ${commands}.` : ""}`),
      this.#style.dim("Local: :config ID=VALUE, :quit. Ctrl-C cancels a turn; twice (or Ctrl-D) exits."),
    ]);
  }

  /** Prints the history a resume replayed between two markers, so it never reads as live output. */
  printReplayed(): void {
    if (this.#store.getSnapshot().timeline.length === 0) return;
    this.#view.print([this.#style.dim("┄┄ replayed history ┄┄")]);
    this.flush();
    this.#view.print([this.#style.dim("┄┄ end of replayed history ┄┄")]);
  }

  startTurn(): void {
    this.flush();
  }

  /**
   * Commits what is final and prints a stop reason line: the session's (one turn at a time), or
   * a given turn's or work's own result, labelled (queued prompts, agent-initiated work).
   */
  endTurn(
    result?: { stopReason?: string; error?: { code: number; message: string; data?: unknown } },
    label?: string,
  ): void {
    this.flush();
    const snapshot = this.#store.getSnapshot();
    this.#view.print([renderTurnEnd(snapshot, this.#options, result ?? snapshot.state, label)]);
  }

  /** A one-line remark from the client itself. */
  note(text: string): void {
    this.flush();
    this.#view.print([this.#style.dim(`· ${text}`)]);
  }

  showPermission(request: RequestPermissionRequest | undefined): void {
    this.#permission = request;
    this.flush();
  }

  notePermission(request: RequestPermissionRequest, choice: PermissionOption | undefined, automatic: boolean): void {
    const how = automatic ? " (automatic)" : "";
    const line = choice
      ? choice.kind.startsWith("allow")
        ? this.#style.green(`✔ ${request.title} → ${choice.name}${how}`)
        : this.#style.red(`✘ ${request.title} → ${choice.name}${how}`)
      : this.#style.dim(`⊘ ${request.title} → cancelled${how}`);
    this.flush();
    this.#view.print([line]);
  }

  setInput(text: string): void {
    this.#input = text;
    this.#schedule();
  }

  setPrompting(prompting: boolean): void {
    this.#prompting = prompting;
    this.flush();
  }

  /** Renders now. */
  flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.#stopped) this.#render();
  }

  /**
   * Prints for good everything not printed yet, finished or not (the connection failed: what
   * was streamed so far stays on screen, the failure goes below it).
   */
  settle(): void {
    this.#settled = true;
    this.flush();
  }

  stop(): void {
    this.flush();
    this.#stopped = true;
    this.#unsubscribe();
    if (this.#spinner !== undefined) clearInterval(this.#spinner);
    this.#view.clearLive();
  }

  #schedule(): void {
    if (this.#timer !== undefined || this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#render();
    }, REDRAW_MS);
  }

  #configLine(): string | undefined {
    const options = this.#store.getSnapshot().configOptions;
    if (options.length === 0) return undefined;
    return options.map((o) => `${o.name}: ${currentValueName(o)}`).join(" · ");
  }

  #render(): void {
    const snapshot = this.#store.getSnapshot();
    const { style } = this.#options;
    const permanent: string[] = [];

    const { commit, live } = this.#settled
      ? { commit: snapshot.timeline.map((_, i) => i).filter((i) => !this.#committed.has(i)), live: [] }
      : partitionTimeline(snapshot, this.#committed);
    for (const index of commit) {
      this.#committed.add(index);
      const entry = snapshot.timeline[index];
      if (entry === undefined) continue;
      const lines = renderEntry(entry, snapshot, this.#options);
      if (lines.length === 0) continue;
      if (entry.type === "message" && entry.kind === "user") permanent.push("");
      permanent.push(...lines);
    }
    for (const notice of snapshot.notices.slice(this.#noticesShown)) {
      const paint = notice.severity === "error" ? style.red : notice.severity === "warning" ? style.yellow : style.blue;
      permanent.push(paint(`! ${notice.title}${notice.description ? ` — ${notice.description}` : ""}`));
    }
    this.#noticesShown = snapshot.notices.length;
    if (snapshot.info.title !== this.#title) {
      this.#title = snapshot.info.title;
      if (this.#title !== undefined) permanent.push(style.magenta(`◆ ${this.#title}`));
    }
    const config = this.#configLine();
    if (config !== this.#config) {
      this.#config = config;
      if (config !== undefined) permanent.push(style.dim(`⚙ ${config}`));
    }
    this.#view.print(permanent);

    if (!this.#view.isLive) return;
    const region: string[] = [];
    const plans = live.filter((i) => snapshot.timeline[i]?.type === "plan");
    for (const index of live) {
      const entry = snapshot.timeline[index];
      if (entry && entry.type !== "plan") region.push(...renderEntry(entry, snapshot, this.#options));
    }
    for (const index of plans) region.push(...renderEntry(snapshot.timeline[index]!, snapshot, this.#options));
    if (this.#permission) region.push(...renderPermissionPrompt(this.#permission, this.#options));
    region.push(...renderFooter(snapshot, this.#frame, this.#options));
    // While work runs the line stays open too: a prompt sent then is queued (or steered) by the agent.
    if (this.#prompting) region.push(`${style.bold(style.cyan("›"))} ${this.#input}`);
    this.#view.setLive(region);
  }
}
