/**
 * A session's foreground state machine on the client: opens and ends `ForegroundWork`s from
 * the update stream, binds prompt handles to the work containing their user message (by
 * `messageId`, never by arrival order), decides which works no prompt of ours started, and runs
 * the fallback for agents that never echo a user message. See docs/turn-model.md.
 */
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { Backpressure, type ForegroundWork, WorkControl, type WorkState } from "./foreground-work.js";
import { TurnControl, type TurnResult, turnResultOf } from "./turn.js";
import type { FeedLimits } from "./update-feed.js";

export interface TrackerHost {
  readonly sessionId: string;
  readonly logger: Logger | undefined;
  readonly limits: FeedLimits;
  readonly userMessageTimeoutMs: number;
  /** The session's cancel (`session/cancel` and the local marking). */
  cancel(): Promise<void>;
}

type StateUpdate = Extract<SessionUpdate, { sessionUpdate: "state_update" }>;

/** Agent output: the first one decides that a work was not started by a user message. */
const AGENT_OUTPUT: ReadonlySet<string> = new Set([
  "agent_message",
  "agent_message_chunk",
  "agent_thought",
  "agent_thought_chunk",
  "tool_call_update",
  "tool_call_content_chunk",
  "terminal_update",
  "terminal_output_chunk",
  "plan_update",
]);
/** User messages remembered for unanswered prompts, at most (the oldest are forgotten first). */
const MAX_REMEMBERED = 1024;

export class ForegroundTracker {
  readonly pressure = new Backpressure();
  readonly #host: TrackerHost;
  #idle: boolean;
  /** The work in progress (pending or running). */
  #current: WorkControl | undefined;
  #works = 0;
  /** Unsettled prompt handles not bound to a work yet. */
  readonly #unbound = new Set<TurnControl>();
  /** Accepted handles whose user message has not arrived, by messageId. */
  readonly #awaitingEcho = new Map<string, TurnControl>();
  #unanswered = 0;
  /** The work of each user message no response has claimed yet (kept while prompts are unanswered). */
  readonly #seen = new Map<string, WorkControl>();
  /** Works neither reported nor known to be ours. */
  readonly #undecided = new Set<WorkControl>();
  readonly #listeners = new Set<(work: ForegroundWork) => void>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #warned = false;

  constructor(host: TrackerHost, idle: boolean) {
    this.#host = host;
    this.#idle = idle;
  }

  get activeWork(): ForegroundWork[] {
    return this.#current && !this.#current.settled ? [this.#current.handle] : [];
  }

  /** Tool calls of the current work (what a cancel may mark), if work is in progress. */
  get currentToolCalls(): ReadonlySet<string> | undefined {
    return this.#current?.toolCalls;
  }

  get busy(): boolean {
    return !this.#idle || this.#current !== undefined || this.#unbound.size > 0;
  }

  onWork(listener: (work: ForegroundWork) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The session now reads another store (resume): its state is the foreground state, unless work is open. */
  useState(idle: boolean): void {
    if (this.#current === undefined) this.#idle = idle;
  }

  // ---- prompts ----------------------------------------------------------------------------------

  newTurn(): TurnControl {
    const turn: TurnControl = new TurnControl(
      this.#host.sessionId,
      () => this.#host.cancel(),
      this.#host.limits,
      this.pressure,
    );
    this.#unbound.add(turn);
    this.#unanswered++;
    return turn;
  }

  answered(turn: TurnControl, messageId: string): void {
    this.#unanswered--;
    turn.accept(messageId);
    if (!turn.settled) {
      const work = this.#seen.get(messageId);
      if (work !== undefined) {
        this.#seen.delete(messageId);
        this.#bind(turn, work);
      } else {
        this.#awaitingEcho.set(messageId, turn);
      }
    }
    this.#promptsChanged();
  }

  refused(turn: TurnControl, error: unknown, cancelledByUs: boolean): void {
    this.#unanswered--;
    this.#unbound.delete(turn);
    turn.refuse(error);
    if (cancelledByUs) turn.settle({ stopReason: "cancelled" });
    else turn.fail(error);
    this.#promptsChanged();
  }

  #promptsChanged(): void {
    if (this.#unanswered === 0) this.#seen.clear();
    for (const work of [...this.#undecided]) this.#decide(work);
    this.#arm();
  }

  #bind(turn: TurnControl, work: WorkControl): void {
    this.#unbound.delete(turn);
    work.turns.add(turn);
    const fallback = turn.fallbackWork === work;
    turn.fallbackWork = undefined;
    if (
      (work.firstMessageId !== undefined && work.firstMessageId === turn.messageId) ||
      (fallback && !work.reported && work.startedBy !== "prompt")
    ) {
      work.ours = true;
      this.#undecided.delete(work);
      if (!work.reported) work.feed.release();
    }
    turn.bind(work);
    if (work.settled) turn.settle(work.result ?? {});
  }

  // ---- updates ----------------------------------------------------------------------------------

  receive(update: SessionUpdate): void {
    switch (update.sessionUpdate) {
      case "state_update":
        this.#state(update);
        return;
      case "user_message":
      case "user_message_chunk":
        this.#userMessage(update, update.messageId);
        return;
    }
    const work = this.#current;
    // While idle with no work open, updates are background activity: they belong to no work.
    if (work === undefined) return;
    if (update.sessionUpdate === "tool_call_update" || update.sessionUpdate === "tool_call_content_chunk")
      work.toolCalls.add(update.toolCallId);
    if (work.startedBy === undefined && AGENT_OUTPUT.has(update.sessionUpdate)) work.startedBy = "agent";
    this.#deliver(work, update);
    this.#decide(work);
  }

  /** A permission request's tool call subject counts as reported during the current work. */
  toolCallSeen(toolCallId: string): void {
    this.#current?.toolCalls.add(toolCallId);
  }

  #userMessage(update: SessionUpdate, messageId: string): void {
    let work = this.#current;
    if (work === undefined) {
      // An insertion while idle opens the work it precedes, when a prompt of ours may be in it.
      if (this.#unbound.size === 0) return;
      work = this.#open("pending");
    }
    const isNew = work.addMessage(messageId);
    if (isNew && work.startedBy === undefined) {
      work.startedBy = "prompt";
      work.firstMessageId = messageId;
    }
    const turn = this.#awaitingEcho.get(messageId);
    if (turn !== undefined) {
      this.#awaitingEcho.delete(messageId);
      this.#bind(turn, work);
    } else if (isNew && this.#unanswered > 0) {
      this.#seen.set(messageId, work);
      if (this.#seen.size > MAX_REMEMBERED) this.#seen.delete(this.#seen.keys().next().value!);
    }
    this.#deliver(work, update);
    this.#decide(work);
  }

  #state(update: StateUpdate): void {
    const raw = update.state;
    if (raw !== "idle") {
      const state: WorkState = raw === "requires_action" ? "requires_action" : "running";
      let work = this.#current;
      if (this.#idle) {
        this.#idle = false;
        this.#disarm();
        work ??= this.#open(state);
      }
      if (work === undefined) return;
      work.state = state;
      this.#deliver(work, update);
      this.#decide(work);
      return;
    }
    const work = this.#current;
    if (!this.#idle) {
      this.#idle = true;
      if (work !== undefined) {
        this.#deliver(work, update);
        this.#end(work, turnResultOf(update));
      }
    } else if (work !== undefined) {
      // Idle while a pending work is open: an insertion that never reported `running`.
      if (work.turns.size > 0 || work.messageIds.some((id) => this.#seen.get(id) === work)) {
        this.#deliver(work, update);
        this.#end(work, turnResultOf(update));
      } else {
        this.#current = undefined;
        this.#undecided.delete(work);
        work.feed.end();
        for (const turn of this.#unbound) turn.dropCandidates(work);
      }
    }
    // Otherwise a repeated idle (or resume) snapshot: no completion.
    this.#arm();
  }

  #open(state: WorkState): WorkControl {
    const work = new WorkControl(
      this.#host.sessionId,
      `work-${++this.#works}`,
      state,
      () => this.#host.cancel(),
      this.#host.limits,
      this.pressure,
    );
    this.#current = work;
    this.#undecided.add(work);
    return work;
  }

  #deliver(work: WorkControl, update: SessionUpdate): void {
    work.push(update);
    // Most updates arrive with every prompt bound: no iterator made over the empty set.
    if (this.#unbound.size > 0) for (const turn of this.#unbound) turn.candidate(work, update);
  }

  #end(work: WorkControl, result: TurnResult): void {
    this.#current = undefined;
    work.settle(result);
    for (const turn of work.turns) turn.settle(work.result ?? {});
    const claimable = work.messageIds.some((id) => this.#seen.get(id) === work);
    for (const turn of this.#unbound) {
      if (turn.answered) {
        // Accepted, echo missing: the last work that ended since is its fallback.
        if (turn.fallbackWork !== undefined) turn.dropCandidates(turn.fallbackWork);
        turn.fallbackWork = work;
      } else if (!claimable) {
        turn.dropCandidates(work);
      }
    }
    this.#decide(work);
  }

  /** Reports `work` once it is known that no prompt of ours started it. */
  #decide(work: WorkControl): void {
    if (work.reported || work.ours) return;
    if (work.state === "pending") return; // reported once it runs
    let notOurs: boolean;
    if (work.startedBy === "prompt") notOurs = this.#unanswered === 0;
    else if (work.startedBy === "agent") notOurs = true;
    else if (this.#unbound.size === 0) notOurs = true;
    // An ended work without content is the agent's, unless it is an echo-less prompt's fallback.
    else notOurs = work.settled && ![...this.#unbound].some((t) => t.fallbackWork === work);
    if (!notOurs) return;
    work.startedBy ??= "agent";
    work.reported = true;
    this.#undecided.delete(work);
    for (const listener of [...this.#listeners]) {
      try {
        listener(work.handle);
      } catch (error) {
        this.#host.logger?.error?.("session: a foreground work listener threw", { error });
      }
    }
    work.feed.release();
  }

  // ---- fallback for agents that never echo a user message ---------------------------------------

  #arm(): void {
    if (!this.#idle || this.#timer !== undefined) return;
    const pending = this.#current !== undefined && this.#current.turns.size > 0;
    if (!pending && ![...this.#unbound].some((t) => t.answered)) return;
    this.#timer = setTimeout(() => this.#fallback(), this.#host.userMessageTimeoutMs);
  }

  #disarm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #fallback(): void {
    this.#timer = undefined;
    if (!this.#idle) return;
    const missing = [...this.#unbound].filter((t) => t.answered).map((t) => t.messageId);
    if (!this.#warned) {
      this.#warned = true;
      this.#host.logger?.warn?.(
        "Protocol warning: the agent accepted prompts but reported no foreground work for their user message; settling their turns",
        { sessionId: this.#host.sessionId, messageIds: missing, timeoutMs: this.#host.userMessageTimeoutMs },
      );
    }
    const work = this.#current;
    if (work !== undefined && work.turns.size > 0) this.#end(work, {});
    for (const turn of [...this.#unbound]) {
      if (!turn.answered) continue;
      if (turn.messageId !== undefined) this.#awaitingEcho.delete(turn.messageId);
      if (turn.fallbackWork !== undefined) this.#bind(turn, turn.fallbackWork);
      else {
        this.#unbound.delete(turn);
        turn.settle({});
      }
    }
    for (const undecided of [...this.#undecided]) this.#decide(undecided);
  }

  // ---- cancel and end ---------------------------------------------------------------------------

  /** A cancel was requested: an idle without a stop reason then reads as `cancelled`. */
  cancelRequested(): void {
    const work = this.#current;
    if (work !== undefined) {
      work.cancelRequested = true;
      for (const turn of work.turns) turn.cancelRequested = true;
    }
    for (const turn of this.#unbound) turn.cancelRequested = true;
  }

  /** The session was closed: every unfinished handle ends `cancelled`. */
  closed(): void {
    this.#finish((handle) => handle.settle({ stopReason: "cancelled" }));
  }

  /** The connection ended: every unfinished handle fails with its error. */
  connectionClosed(error: unknown): void {
    this.#finish((handle) => handle.fail(error));
  }

  #finish(end: (handle: TurnControl | WorkControl) => void): void {
    this.#disarm();
    const work = this.#current;
    this.#current = undefined;
    if (work !== undefined) {
      for (const turn of work.turns) end(turn);
      end(work);
    }
    for (const turn of this.#unbound) end(turn);
    this.#unbound.clear();
    this.#awaitingEcho.clear();
    this.#seen.clear();
    this.#undecided.clear();
    this.pressure.releaseAll();
  }
}
