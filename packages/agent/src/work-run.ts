/**
 * One unit of foreground work (a prompt turn or agent-initiated work): its abort controller, the
 * client requests it waits on, the tool calls it created, and the promise of its stop reason.
 * The session runtime drives it; it holds state only.
 */
import type { StopReason } from "@acp-kit/protocol";
import type { ContentBlock } from "@acp-kit/protocol/types";
import type { TerminalBuilder } from "./builders/terminal.js";
import type { ToolCallBuilder } from "./builders/tool-call.js";

/** A prompt delivered to a running turn that opted in with `turn.onFollowUp`. */
export interface FollowUp {
  /** Id of the inserted user message (also returned to the client). */
  messageId: string;
  prompt: readonly ContentBlock[];
  /** The prompt's text blocks joined. */
  text: string;
}

export class WorkRun {
  /** Created when the signal is first read: most handlers never read it (one fewer object per turn). */
  #controller: AbortController | undefined;
  #aborted: { reason: unknown } | undefined;
  /** Set once the idle state_update was sent (only recorded, if the connection went away): nothing more goes out. */
  ended = false;
  /** The client (or close) asked to stop it; its stop reason will be `cancelled`. */
  cancelRequested = false;
  /** Pending client requests the whole run waits on (permission, elicitation). */
  blockers = 0;
  readonly pendingRequests = new Set<AbortController>();
  readonly toolCalls = new Set<ToolCallBuilder>();
  readonly terminals = new Set<TerminalBuilder>();
  readonly followUpListeners = new Set<(followUp: FollowUp) => void>();
  graceTimer: ReturnType<typeof setTimeout> | undefined;

  readonly done: Promise<StopReason>;
  readonly #resolveDone: (reason: StopReason) => void;
  /** Settles when the engine stops waiting for the handler (grace period over, connection gone). */
  readonly forced: Promise<{ kind: "forced" }>;
  readonly forceEnd: () => void;

  constructor() {
    let resolveDone!: (reason: StopReason) => void;
    this.done = new Promise<StopReason>((resolve) => (resolveDone = resolve));
    this.#resolveDone = resolveDone;
    let force!: () => void;
    this.forced = new Promise((resolve) => (force = () => resolve({ kind: "forced" })));
    this.forceEnd = force;
  }

  /** The run's abort signal (`turn.signal`); already aborted, with the reason, when read after `abort`. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted !== undefined) this.#controller.abort(this.#aborted.reason);
    }
    return this.#controller.signal;
  }

  get aborted(): boolean {
    return this.#aborted !== undefined;
  }

  /** Aborts the run's signal with `reason` (the first reason wins). */
  abort(reason: unknown): void {
    if (this.#aborted !== undefined) return;
    this.#aborted = { reason };
    this.#controller?.abort(reason);
  }

  settle(reason: StopReason): void {
    if (this.graceTimer !== undefined) clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
    this.#resolveDone(reason);
  }

  /** Aborts every client request the run still waits on (the connection sends `$/cancel_request`). */
  abortPendingRequests(): void {
    for (const request of [...this.pendingRequests]) request.abort();
  }
}
