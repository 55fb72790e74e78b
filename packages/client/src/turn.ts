/**
 * Prompt handles: a `Turn` follows one `session/prompt` from its acceptance (the inserted user
 * message's `messageId`) to the idle that ends the foreground work containing that message.
 * See docs/turn-model.md for the binding rule.
 */
import { type Meta, patchMeta, type ReceivedStopReason } from "@acp-kit/protocol";
import type { AcpErrorObject, SessionUpdate } from "@acp-kit/protocol/types";
import { UpdateBufferOverflowError } from "./errors.js";
import type { ForegroundWork, WorkControl } from "./foreground-work.js";
import { ProgressControl, ProgressHandle } from "./progress.js";
import { tokenUsageOf } from "./store/live-state.js";
import type { TokenUsage } from "./store/types.js";
import type { FeedLimits, FeedPressure } from "./update-feed.js";

/** Why foreground work stopped, as received: ACP's reasons, `_`-prefixed custom ones, or a newer peer's. */
export type StopReason = ReceivedStopReason;

export interface TurnResult {
  /** From the idle state update; absent when the agent did not report one. */
  readonly stopReason?: StopReason;
  /** Details of a `stopReason: "error"`, when the agent gave them. */
  readonly error?: AcpErrorObject;
  /** The turn's token counts, when the agent reported them (a v1 agent's prompt answer `usage`). */
  readonly usage?: TokenUsage;
  /** The idle's `_meta` (a v1 agent's prompt answer `_meta`, e.g. gemini-cli's `quota`). */
  readonly meta?: Meta;
}

/** What turns and works share: a result, updates to iterate, and a way to cancel. */
export interface WorkProgress extends AsyncIterable<SessionUpdate> {
  readonly sessionId: string;
  /** The same updates as iterating the handle itself (see `Turn` / `ForegroundWork` for which). */
  readonly updates: AsyncIterable<SessionUpdate>;
  /**
   * Settles with the `{ stopReason, error }` of the idle that ends the work. Rejects with the
   * `ConnectionError` if the connection dies first (and, for a turn, with the agent's
   * `RequestError` if the prompt was refused).
   */
  readonly done: Promise<TurnResult>;
  /** Whether `done` has settled. */
  readonly isDone: boolean;
  /**
   * Cancels the session's foreground work (`session/cancel`): marks the current work's unfinished
   * tool calls `cancelled` in the store at once (not those listed as background work) and answers
   * pending permission requests `cancelled`. `done` settles when the agent's idle arrives. A no-op
   * once `done` settled.
   */
  cancel(): Promise<void>;
}

/**
 * The handle `session.prompt()` returns.
 *
 * It binds to the foreground work that contains its user message (by `messageId`, whichever of
 * the response and the `user_message` update comes first), settles `done` with that work's
 * ending idle, and its iterator yields that work's updates (from the prompt being sent, once
 * bound) and nothing of any other work. Prompts the agent inserts into running work share it.
 *
 * @example
 * ```ts
 * const turn = session.prompt("Summarize README.md");
 * for await (const update of turn) {
 *   if (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text") {
 *     process.stdout.write(update.content.text);
 *   }
 * }
 * const messageId = await turn.accepted; // the inserted user message
 * const { stopReason } = await turn.done; // e.g. "end_turn"
 * ```
 */
export interface Turn extends WorkProgress {
  /**
   * Resolves with the inserted user message's ID when the `session/prompt` response arrives
   * (acceptance is insertion, not completion). Rejects with the agent's `RequestError` if the
   * prompt was not inserted, or with the `ConnectionError`.
   */
  readonly accepted: Promise<string>;
  /** The same promise as `accepted`. */
  readonly messageId: Promise<string>;
  /** The work this prompt is part of, once bound. */
  readonly work: ForegroundWork | undefined;
}

type Candidate = { work: WorkControl; update: SessionUpdate };

/** The session-side controls of a prompt handle. */
export class TurnControl extends ProgressControl {
  readonly handle: Turn;
  readonly accepted: Promise<string>;
  /** The response arrived with this id. */
  messageId: string | undefined;
  /** The response (success or error) arrived. */
  answered = false;
  work: WorkControl | undefined;
  /** A work that ended after acceptance while the echo was missing: the fallback binding. */
  fallbackWork: WorkControl | undefined;
  /** Updates of works this unbound handle may still be bound to (only while iterated). */
  #candidates: Candidate[] = [];
  /** Works whose oldest candidates were dropped at the cap: bound to one, the iterator fails. */
  #overflowed: Set<WorkControl> | undefined;
  readonly #candidateCap: number;
  #resolveAccepted!: (id: string) => void;
  #rejectAccepted!: (error: unknown) => void;

  constructor(sessionId: string, cancel: () => Promise<void>, limits: FeedLimits, pressure: FeedPressure) {
    super(limits, pressure);
    // The feed's own hard bound: candidates cannot pause the transport (the handle does not
    // know its work yet), so they are held like a feed that could not pause.
    this.#candidateCap = limits.limit;
    this.accepted = new Promise<string>((resolve, reject) => {
      this.#resolveAccepted = resolve;
      this.#rejectAccepted = reject;
    });
    // Nobody has to await it: a rejection must not surface as an unhandled one.
    this.accepted.catch(() => {});
    this.handle = new TurnHandle(sessionId, this, cancel);
  }

  /** An update of `work` (or of no work) while this handle is unbound. */
  candidate(work: WorkControl, update: SessionUpdate): void {
    if (!this.feed.wanted) return;
    this.#candidates.push({ work, update });
    if (this.#candidates.length > this.#candidateCap) {
      // Past the cap the oldest go, and the work they belonged to can no longer be iterated whole.
      const dropped = this.#candidates.shift() as Candidate; // reason: the array is over its cap, so not empty
      (this.#overflowed ??= new Set()).add(dropped.work);
    }
  }

  /** Forgets the candidate updates of a work this handle can no longer be bound to. */
  dropCandidates(work: WorkControl): void {
    this.#overflowed?.delete(work);
    if (this.#candidates.length > 0) this.#candidates = this.#candidates.filter((c) => c.work !== work);
  }

  /** Binds to `work`: its candidate updates become the handle's first ones. */
  bind(work: WorkControl): void {
    this.work = work;
    if (this.#overflowed?.has(work)) {
      // Some of its first updates are gone: the iterator says so instead of starting late.
      this.feed.end(new UpdateBufferOverflowError(this.#candidateCap));
    } else {
      for (const c of this.#candidates) if (c.work === work) this.feed.push(c.update);
    }
    this.#candidates = [];
    this.#overflowed = undefined;
  }

  accept(messageId: string): void {
    this.messageId = messageId;
    this.answered = true;
    this.#resolveAccepted(messageId);
  }

  refuse(error: unknown): void {
    this.answered = true;
    this.#rejectAccepted(error);
  }

  protected override ending(failed: boolean, error?: unknown): void {
    this.#candidates = [];
    this.#overflowed = undefined;
    if (failed) this.#rejectAccepted(error);
  }
}

class TurnHandle extends ProgressHandle implements Turn {
  readonly #control: TurnControl;

  constructor(sessionId: string, control: TurnControl, cancel: () => Promise<void>) {
    super(sessionId, control, cancel);
    this.#control = control;
  }

  get accepted(): Promise<string> {
    return this.#control.accepted;
  }
  get messageId(): Promise<string> {
    return this.#control.accepted;
  }
  get work(): ForegroundWork | undefined {
    return this.#control.work?.handle;
  }
}

/** The result an idle state update carries (nothing for any other update). */
export function turnResultOf(update: SessionUpdate): TurnResult {
  if (update.sessionUpdate !== "state_update" || update.state !== "idle") return {};
  const { stopReason } = update;
  if (typeof stopReason !== "string") return {};
  let result: TurnResult = { stopReason };
  if (update.stopReason === "error" && update.error && typeof update.error === "object")
    result = { ...result, error: update.error };
  const usage = tokenUsageOf(update);
  if (usage !== undefined) result = { ...result, usage };
  const meta = patchMeta(undefined, update._meta);
  return meta === undefined ? result : { ...result, meta };
}
