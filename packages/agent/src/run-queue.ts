/**
 * The prompts and agent work of one session waiting for their turn, and the one run going on.
 * One run at a time: a prompt is inserted (its user message sent, its `messageId` answered) only
 * when its run starts, or at once into a running turn that opted in to follow-ups. A cancel drops
 * what is queued (prompts get -32800, work resolves `cancelled`), aborts the run and gives its
 * handler the grace period before the run is ended without it.
 */
import type { StopReason } from "@acp-kit/protocol";
import { type Logger, RequestError } from "@acp-kit/protocol/jsonrpc";
import type { ContentBlock } from "@acp-kit/protocol/types";
import { TurnEndedError } from "./errors.js";
import { promptText } from "./prompt-content.js";
import { type Outcome, stopOf } from "./run-ending.js";
import type { LastStop } from "./session-store.js";
import type { WorkHandler } from "./session-types.js";
import type { Turn } from "./turn-context.js";
import { WorkRun } from "./work-run.js";

type QueueItem =
  | {
      kind: "prompt";
      prompt: ContentBlock[];
      resolve(result: { messageId: string }): void;
      reject(error: unknown): void;
    }
  | { kind: "work"; handler: WorkHandler; resolve(reason: StopReason): void };

/**
 * The abort reason of every turn that ends without a cancel. Built once: a DOMException captures
 * a stack trace, which cost more than the rest of a trivial turn's ending.
 */
const TURN_ENDED = new DOMException("The turn ended", "AbortError");

/** What the queue needs from its session. */
export interface RunQueueHost {
  readonly sessionId: string;
  readonly logger: Logger;
  readonly cancelGracePeriodMs: number;
  readonly promptHandler: WorkHandler;
  /**
   * False once the session takes no new work (its close started, or it is closed). A method, not
   * a getter: an object literal with an accessor is made in dictionary mode (~800 bytes a session).
   */
  accepting(): boolean;
  /** A fresh id for an insertion; throws the request error that refuses the prompt (nothing sent). */
  newUserMessageId(): string;
  /** Sends the insertion of a prompt under `messageId`. */
  insertUserMessage(prompt: ContentBlock[], messageId: string): void;
  /** A run starts: the foreground goes `running`. */
  runStarted(): void;
  /** What the run's handler receives. */
  turnOf(run: WorkRun, prompt: readonly ContentBlock[], messageId: string | undefined): Turn;
  /** The run is ending with `stop`: what it leaves unfinished is closed (it can still send). */
  runEnding(run: WorkRun, stop: LastStop): void;
  /** The run has ended: the foreground goes `idle` with `stop`. */
  runEnded(stop: LastStop): void;
}

export class RunQueue {
  readonly #host: RunQueueHost;
  readonly #queue: QueueItem[] = [];
  #current: WorkRun | undefined;
  /** Runs the engine ended with an error of its own (a store that could not commit), and that error. */
  readonly #failures = new WeakMap<WorkRun, unknown>();

  constructor(host: RunQueueHost) {
    this.#host = host;
  }

  /** The run going on, if any. */
  get current(): WorkRun | undefined {
    return this.#current;
  }

  /** A validated `session/prompt`: resolves with the messageId once the prompt is inserted. */
  prompt(prompt: ContentBlock[]): Promise<{ messageId: string }> {
    if (!this.#host.accepting()) return Promise.reject(RequestError.requestCancelled({ reason: "session closing" }));
    const run = this.#current;
    if (run !== undefined && !run.ended && !run.cancelRequested && run.followUpListeners.size > 0) {
      try {
        return Promise.resolve(this.#deliverFollowUp(run, prompt));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return new Promise((resolve, reject) => {
      this.#queue.push({ kind: "prompt", prompt, resolve, reject });
      this.#pump();
    });
  }

  /** Agent-initiated work: resolves with its stop reason once its idle was sent. */
  work(handler: WorkHandler): Promise<StopReason> {
    return new Promise<StopReason>((resolve) => {
      this.#queue.push({ kind: "work", handler, resolve });
      this.#pump();
    });
  }

  /**
   * Drops what is queued, cancels the current run with the abort reason `reason` makes; resolves once
   * its idle was sent (at once when none).
   */
  cancel(reason: () => DOMException): Promise<void> {
    this.#dropQueue();
    const run = this.#current;
    if (run === undefined || run.ended) return Promise.resolve();
    if (!run.cancelRequested) {
      run.cancelRequested = true;
      run.abort(reason());
      run.abortPendingRequests();
      const { logger, sessionId, cancelGracePeriodMs } = this.#host;
      run.graceTimer = setTimeout(() => {
        logger.warn?.("Turn handler ignored cancellation; ending the turn without it", {
          sessionId,
          graceMs: cancelGracePeriodMs,
        });
        run.forceEnd();
      }, cancelGracePeriodMs);
    }
    return run.done.then(() => undefined);
  }

  /**
   * Ends the current run at once with `stopReason: "error"` and `error` (what it sends afterwards
   * throws `TurnEndedError`): the engine cannot go on with it, e.g. its updates could not be
   * stored. Its signal aborts with `error`. Nothing queued is dropped. No-op when none runs.
   */
  fail(error: unknown): void {
    const run = this.#current;
    if (run === undefined || run.ended || this.#failures.has(run)) return;
    this.#failures.set(run, error);
    run.abort(error);
    run.abortPendingRequests();
    run.forceEnd();
  }

  #dropQueue(): void {
    const dropped = this.#queue.splice(0);
    for (const item of dropped) {
      if (item.kind === "prompt") item.reject(RequestError.requestCancelled({ reason: "cancelled before insertion" }));
      else item.resolve("cancelled");
    }
  }

  #deliverFollowUp(run: WorkRun, prompt: ContentBlock[]): { messageId: string } {
    const messageId = this.#host.newUserMessageId();
    this.#host.insertUserMessage(prompt, messageId);
    const followUp = { messageId, prompt, text: promptText(prompt) };
    for (const listener of [...run.followUpListeners]) {
      try {
        listener(followUp);
      } catch (error) {
        this.#host.logger.error?.("onFollowUp listener threw", { sessionId: this.#host.sessionId, error });
      }
    }
    return { messageId };
  }

  #pump(): void {
    if (this.#current !== undefined || !this.#host.accepting()) return;
    const item = this.#queue.shift();
    if (item === undefined) return;
    const host = this.#host;
    if (item.kind === "work") {
      const run = this.#begin();
      void run.done.then(item.resolve);
      void this.#execute(run, host.turnOf(run, [], undefined), item.handler);
      return;
    }
    let messageId: string;
    // Before `running`: a refused insertion sends nothing at all.
    try {
      messageId = host.newUserMessageId();
    } catch (error) {
      item.reject(error);
      this.#pump();
      return;
    }
    const run = this.#begin();
    host.insertUserMessage(item.prompt, messageId);
    item.resolve({ messageId });
    void this.#execute(run, host.turnOf(run, item.prompt, messageId), host.promptHandler);
  }

  #begin(): WorkRun {
    const run = new WorkRun();
    this.#current = run;
    this.#host.runStarted();
    return run;
  }

  async #execute(run: WorkRun, turn: Turn, handler: WorkHandler): Promise<void> {
    const handled: Promise<Outcome> = (async () => handler(turn))().then(
      (value): Outcome => ({ kind: "return", value }),
      (error: unknown): Outcome => ({ kind: "throw", error }),
    );
    let outcome = await Promise.race([handled, run.forced]);
    if (outcome.kind === "forced") {
      void handled.then((late) => {
        if (late.kind === "throw" && !(late.error instanceof TurnEndedError))
          this.#host.logger.debug?.("Turn handler failed after its turn was ended", late.error);
      });
      if (this.#failures.has(run) && !run.cancelRequested) outcome = { kind: "throw", error: this.#failures.get(run) };
    }
    this.#finish(run, outcome);
  }

  #finish(run: WorkRun, outcome: Outcome): void {
    if (run.ended) return;
    const stop = stopOf(outcome, run.cancelRequested, this.#host.logger, this.#host.sessionId);
    this.#host.runEnding(run, stop);
    run.ended = true;
    run.abortPendingRequests();
    run.abort(TURN_ENDED);
    this.#current = undefined;
    this.#host.runEnded(stop);
    run.settle(stop.stopReason);
    this.#pump();
  }
}
