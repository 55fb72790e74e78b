/**
 * Handles on foreground work: a `Turn` follows one prompt from `session/prompt` to the idle
 * state update that ends it; a `ForegroundWork` follows work the agent started on its own.
 */
import type { AcpErrorObject, ReceivedStopReason, SessionUpdate } from "@acp-kit/protocol";
import { UpdateFeed } from "./update-feed.js";

/** Why foreground work stopped, as received: ACP's reasons, `_`-prefixed custom ones, or a newer peer's. */
export type StopReason = ReceivedStopReason;

export interface TurnResult {
  /** From the idle state update; absent when the agent did not report one. */
  readonly stopReason?: StopReason;
  /** Details of a `stopReason: "error"`, when the agent gave them. */
  readonly error?: AcpErrorObject;
}

/** Foreground work in one session, until the agent reports idle. */
export interface ForegroundWork extends AsyncIterable<SessionUpdate> {
  readonly sessionId: string;
  /** Every update of the session from the start of this work to its idle update (included). */
  readonly updates: AsyncIterable<SessionUpdate>;
  /**
   * Settles when the agent reports idle: with its stop reason. Rejects with the
   * `ConnectionError` if the connection dies first.
   */
  readonly done: Promise<TurnResult>;
  /** Whether `done` has settled. */
  readonly isDone: boolean;
  /**
   * Cancels the session's foreground work: sends `session/cancel`, marks the work's unfinished
   * tool calls `cancelled` in the store at once and answers pending permission requests with
   * the `cancelled` outcome. `done` then settles when the agent's idle arrives.
   */
  cancel(): Promise<void>;
}

/** One prompt's turn. */
export interface Turn extends ForegroundWork {
  /**
   * The inserted user message's ID: resolves when the `session/prompt` response arrives.
   * Rejects with the agent's `RequestError` if the prompt was not inserted.
   */
  readonly messageId: Promise<string>;
}

/** The session-side controls of a work handle. */
export class WorkControl {
  readonly feed = new UpdateFeed();
  readonly handle: ForegroundWork;
  readonly done: Promise<TurnResult>;
  cancelRequested = false;
  settled = false;
  #resolve!: (result: TurnResult) => void;
  #reject!: (error: unknown) => void;

  constructor(sessionId: string, cancel: () => Promise<void>, extra: object = {}) {
    this.done = new Promise<TurnResult>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // Nobody has to await `done`: a rejection must not surface as an unhandled one.
    this.done.catch(() => {});
    const feed = this.feed;
    // defineProperties (not Object.assign): `isDone` must stay a live getter.
    this.handle = Object.defineProperties(extra, {
      sessionId: { value: sessionId, enumerable: true },
      updates: { value: feed, enumerable: true },
      done: { value: this.done, enumerable: true },
      isDone: { get: () => this.settled, enumerable: true },
      cancel: { value: cancel },
      [Symbol.asyncIterator]: { value: () => feed[Symbol.asyncIterator]() },
    }) as ForegroundWork;
  }

  settle(result: TurnResult): void {
    if (this.settled) return;
    this.settled = true;
    this.feed.end();
    this.#resolve(result);
  }

  fail(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.feed.end(error);
    this.#reject(error);
  }
}

/** A prompt turn's controls: the work, plus the response's bookkeeping. */
export class TurnControl extends WorkControl {
  declare readonly handle: Turn;
  readonly messageId: Promise<string>;
  /** The session was idle when the prompt was sent. */
  readonly sentWhileIdle: boolean;
  /** The `session/prompt` response arrived (successfully). */
  responded = false;
  /** An idle transition that happened before the response (settles the turn once it arrives). */
  idleBeforeResponse: TurnResult | undefined;
  resolveMessageId!: (id: string) => void;
  rejectMessageId!: (error: unknown) => void;

  constructor(sessionId: string, cancel: () => Promise<void>, sentWhileIdle: boolean) {
    let resolveId!: (id: string) => void;
    let rejectId!: (error: unknown) => void;
    const messageId = new Promise<string>((resolve, reject) => {
      resolveId = resolve;
      rejectId = reject;
    });
    messageId.catch(() => {});
    super(sessionId, cancel, { messageId });
    this.messageId = messageId;
    this.resolveMessageId = resolveId;
    this.rejectMessageId = rejectId;
    this.sentWhileIdle = sentWhileIdle;
  }
}

/** The result an idle state update carries. */
export function turnResultOf(update: SessionUpdate): TurnResult {
  const u = update as { stopReason?: unknown; error?: unknown };
  if (typeof u.stopReason !== "string") return {};
  if (u.stopReason === "error" && u.error && typeof u.error === "object")
    return { stopReason: u.stopReason, error: u.error as AcpErrorObject };
  return { stopReason: u.stopReason };
}
