/**
 * The emitters a session and a turn share: plans, terminals, usage, notices and any other update,
 * with the rule that `state_update` is the engine's own. A session sends background updates
 * (allowed while idle, until it closes); a turn sends until its idle. Each says how it delivers,
 * when it refuses, and which host its terminals report to.
 */
import type { SessionUpdate, UsageUpdate } from "@acp-kit/protocol/types";
import { PlanBuilder, type PlanEntryInput } from "./builders/plan.js";
import { TerminalBuilder, type TerminalHost, type TerminalInit } from "./builders/terminal.js";
import type { SessionIds } from "./ids.js";
import type { UpdateOwner } from "./update-owner.js";

export interface NoticeInput {
  severity: "info" | "warning" | "error" | `_${string}`;
  title: string;
  description?: string;
}

/** How `state_update` is refused, per emitter: a turn's handler ends its turn by returning. */
const STATE_UPDATE_REFUSAL = {
  session: "state_update is sent by the turn engine",
  turn: "state_update is sent by the turn engine; return a stop reason instead",
} as const;

export abstract class UpdateEmitter implements UpdateOwner {
  abstract readonly sessionId: string;
  /** False once nothing more may be emitted through this emitter. */
  abstract readonly active: boolean;
  /** How calls are named in errors (`session.plan`, `turn.plan`). */
  protected abstract readonly scope: "session" | "turn";
  /** The session's ids: builders get fresh ones, or claim the author's. */
  protected abstract readonly ids: SessionIds;
  protected abstract readonly terminalHost: TerminalHost;
  /** Throws when nothing more may be created or sent here (`what` names the call). */
  protected abstract assertCanSend(what: string): void;
  /** Sends an update `emit` accepted (may still throw: ended run, invalid update). */
  protected abstract deliver(update: SessionUpdate, what: string): Promise<void>;
  /** Records an update in the session history without sending it (the client applied it another way). */
  abstract record(update: SessionUpdate): void;

  /** Any update except `state_update`, which the engine owns. */
  emit(update: SessionUpdate, what = `${this.scope}.emit`): Promise<void> {
    if (update.sessionUpdate === "state_update") throw new TypeError(`${what}: ${STATE_UPDATE_REFUSAL[this.scope]}`);
    return this.deliver(update, what);
  }

  /** Reports a new display-only terminal. */
  terminal(init: TerminalInit = {}): TerminalBuilder {
    this.assertCanSend(`${this.scope}.terminal`);
    return new TerminalBuilder(this.terminalHost, this.ids.idFor("terminal", init.terminalId), init);
  }

  /** Reports a plan (each `set` replaces its entries). */
  plan(entries: readonly (PlanEntryInput | string)[], options: { planId?: string } = {}): PlanBuilder {
    this.assertCanSend(`${this.scope}.plan`);
    const plan = new PlanBuilder(this, options.planId ?? this.ids.newId("plan"));
    void plan.set(entries);
    return plan;
  }

  usage(usage: Omit<UsageUpdate, "sessionUpdate">): Promise<void> {
    return this.emit({ sessionUpdate: "usage_update", ...usage }, `${this.scope}.usage`);
  }

  /** A live-only notice (never replayed, never required for correctness). */
  notice(notice: NoticeInput): Promise<void> {
    return this.emit({ sessionUpdate: "notice", ...notice }, `${this.scope}.notice`);
  }

  /** The id of a new tool call: the author's (claimed) or a fresh one. */
  protected toolCallId(toolCallId: string | undefined): string {
    this.assertCanSend(`${this.scope}.toolCall`);
    return this.ids.idFor("tool_call", toolCallId);
  }
}
