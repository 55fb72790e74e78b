/**
 * The object a prompt handler (or agent-initiated work) receives: the prompt, an abort signal and
 * builders for everything a turn emits. Every builder refuses to send after the turn's idle
 * (`TurnEndedError`), so nothing of a turn can leak past its end.
 */
import type {
  ClientNotifications,
  ClientRequests,
  ContentBlock,
  CreateElicitationRequest,
  PermissionOption,
  RequestPermissionRequest,
  SessionUpdate,
  UsageUpdate,
} from "@acp-kit/protocol/types";
import type { ContentInput } from "./builders/content.js";
import { MessageBuilder } from "./builders/message.js";
import type { PlanBuilder, PlanEntryInput } from "./builders/plan.js";
import type { TerminalBuilder, TerminalHost, TerminalInit } from "./builders/terminal.js";
import { ToolCallBuilder, type ToolCallHost, type ToolCallInit, type ToolCallPatch } from "./builders/tool-call.js";
import {
  assertElicitationMode,
  type ElicitationRequest,
  type ElicitationResult,
  interpretElicitationResponse,
} from "./elicitation.js";
import { EntityHost, type EntityTracker, TERMINALS, TOOL_CALLS } from "./entity-hosts.js";
import { TurnEndedError } from "./errors.js";
import type { SessionIds } from "./ids.js";
import {
  CANCELLED_PERMISSION,
  DEFAULT_PERMISSION_OPTIONS,
  interpretPermissionResponse,
  type PermissionDecision,
  type PermissionRequest,
} from "./permission.js";
import { promptText } from "./prompt-content.js";
import type { AgentSession, ClientContext } from "./session-types.js";
import { type NoticeInput, UpdateEmitter } from "./update-emitter.js";
import type { FollowUp, WorkRun } from "./work-run.js";

/** A tool call of a turn, with a permission request bound to it. */
export class TurnToolCall extends ToolCallBuilder {
  readonly #turn: TurnContext;
  /** @internal */
  constructor(turn: TurnContext, id: string, init: ToolCallInit) {
    super(turn.toolCallHost, id, init);
    this.#turn = turn;
  }
  /**
   * Asks the user to approve this call. `patch` (e.g. a new title or status) travels in the
   * request's tool-call subject, which the client applies like a `tool_call_update`.
   */
  requestPermission(
    request: Omit<PermissionRequest, "subject" | "title"> & { title?: string; patch?: ToolCallPatch } = {},
  ): Promise<PermissionDecision> {
    const { patch = {}, title, ...rest } = request;
    const subject: PermissionRequest["subject"] = { type: "tool_call", toolCall: this.toUpdate(patch) };
    const question = title ?? (this.title === undefined ? "Allow this tool call?" : `Allow "${this.title}"?`);
    return this.#turn.requestPermissionWith({ ...rest, title: question, subject }, () => this.applyRecorded(patch));
  }
}

/**
 * One unit of foreground work as its handler sees it: a prompt turn, or agent-initiated work
 * (`session.startWork`). The engine sends `running` before the handler runs and exactly one idle,
 * with the handler's stop reason, after it returns; every builder refuses to send after that.
 *
 * @example
 * ```ts
 * const agent = defineAgent({
 *   info: { name: "builder", version: "1.0.0" },
 *   async prompt(turn) {
 *     await turn.say(`Building for: ${turn.text}`);
 *     const build = turn.toolCall({ title: "npm run build", kind: "execute" });
 *     await build.start();
 *     const watch = turn.terminal({ command: "npm run watch" });
 *     watch.detach(); // keeps running after this turn's idle, listed in `background`
 *     await build.complete({ content: ["built"] });
 *     return "end_turn";
 *   },
 * });
 * ```
 */
export interface Turn {
  readonly session: AgentSession;
  /** The prompt's content blocks (empty for agent-initiated work). */
  readonly prompt: readonly ContentBlock[];
  /** The prompt's text blocks joined with blank lines. */
  readonly text: string;
  /** Id of the inserted user message; undefined for agent-initiated work. */
  readonly messageId: string | undefined;
  /** Aborts on `session/cancel`, `session/close`, connection loss, and when the turn ends. */
  readonly signal: AbortSignal;
  /** False once the turn's idle was sent: every builder then throws `TurnEndedError`. */
  readonly active: boolean;
  /** True once the client cancelled (the turn will end `cancelled` whatever the handler does). */
  readonly cancelled: boolean;
  readonly client: ClientContext;

  /** A new agent message; `content` (if given) is sent at once as its full content. */
  message(content?: ContentInput | readonly ContentInput[]): MessageBuilder;
  /** Shorthand: a new agent message with this content. */
  say(content: ContentInput | readonly ContentInput[]): Promise<MessageBuilder>;
  /** A new agent thought; `content` (if given) is sent at once. */
  thought(content?: ContentInput | readonly ContentInput[]): MessageBuilder;
  /** Streams a new agent message from an (async) iterable of text or blocks. */
  stream(source: AsyncIterable<ContentInput> | Iterable<ContentInput>): Promise<MessageBuilder>;
  /** Reports a new tool call (status `pending`, kind `other` unless given). */
  toolCall(init: ToolCallInit): TurnToolCall;
  /** Reports a new display-only terminal. */
  terminal(init?: TerminalInit): TerminalBuilder;
  /** Reports a plan (each `set` replaces its entries). */
  plan(entries: readonly (PlanEntryInput | string)[], options?: { planId?: string }): PlanBuilder;
  usage(usage: Omit<UsageUpdate, "sessionUpdate">): Promise<void>;
  /** A live-only notice (never replayed, never required for correctness). */
  notice(notice: NoticeInput): Promise<void>;
  /** Any other update (e.g. a `_vendor` variant). `state_update` is the engine's and is refused. */
  emit(update: SessionUpdate): Promise<void>;
  /** Asks the user for permission; resolves `cancelled` (not granted) when the turn is cancelled. */
  requestPermission(request: PermissionRequest): Promise<PermissionDecision>;
  /**
   * Asks the user for input. Throws `CapabilityNotSupportedError` (nothing sent) when the client
   * did not advertise the mode. Resolves `{action: "cancel"}` when the turn is cancelled.
   */
  elicit(request: ElicitationRequest): Promise<ElicitationResult>;
  /** Tells the client a URL-mode elicitation finished (`elicitation/complete`). */
  completeElicitation(elicitationId: string): Promise<void>;
  /**
   * Opts this turn in to follow-up prompts: while registered, a prompt for the session is inserted
   * at once and handed to `listener` instead of waiting in the queue for the next turn.
   */
  onFollowUp(listener: (followUp: FollowUp) => void): { dispose(): void };
  /**
   * The same opt-in as an async iterator: yields each follow-up prompt as it is inserted and ends
   * when the turn's signal aborts (or when the loop is left with `break`).
   */
  followUps(): AsyncIterableIterator<FollowUp>;
}

/** What a turn needs from its session runtime. */
export interface TurnHost extends EntityTracker {
  readonly sessionId: string;
  readonly session: AgentSession;
  readonly client: ClientContext;
  emitFromRun(run: WorkRun, update: SessionUpdate, what: string): Promise<void>;
  recordFromRun(run: WorkRun, update: SessionUpdate): void;
  clientRequest<M extends keyof ClientRequests>(
    run: WorkRun,
    method: M,
    params: ClientRequests[M]["params"],
    blocking: boolean,
  ): Promise<{ ok: true; value: ClientRequests[M]["result"] } | { ok: false }>;
  notifyClient<M extends keyof ClientNotifications>(
    run: WorkRun,
    method: M,
    params: ClientNotifications[M]["params"],
    what: string,
  ): Promise<void>;
}

/**
 * The `Turn` a handler receives: one run's emitters and client requests, each refused once the
 * run ended (`TurnEndedError`).
 */
export class TurnContext extends UpdateEmitter implements Turn {
  readonly prompt: readonly ContentBlock[];
  readonly messageId: string | undefined;
  protected readonly scope = "turn";
  protected readonly ids: SessionIds;
  protected readonly terminalHost: TerminalHost;
  readonly #host: TurnHost;
  readonly #run: WorkRun;
  #text: string | undefined;

  /** @internal */
  readonly toolCallHost: ToolCallHost;

  constructor(
    host: TurnHost,
    ids: SessionIds,
    run: WorkRun,
    prompt: readonly ContentBlock[],
    messageId: string | undefined,
  ) {
    super();
    this.#host = host;
    this.ids = ids;
    this.#run = run;
    this.prompt = prompt;
    this.messageId = messageId;
    this.toolCallHost = new EntityHost(this, host, run, TOOL_CALLS);
    this.terminalHost = new EntityHost(this, host, run, TERMINALS);
  }

  get sessionId(): string {
    return this.#host.sessionId;
  }
  get session(): AgentSession {
    return this.#host.session;
  }
  get client(): ClientContext {
    return this.#host.client;
  }
  get text(): string {
    return (this.#text ??= promptText(this.prompt));
  }
  get signal(): AbortSignal {
    return this.#run.signal;
  }
  get active(): boolean {
    return !this.#run.ended;
  }
  get cancelled(): boolean {
    return this.#run.cancelRequested;
  }

  protected assertCanSend(what: string): void {
    if (this.#run.ended) throw new TurnEndedError(what);
  }

  protected deliver(update: SessionUpdate, what: string): Promise<void> {
    return this.#host.emitFromRun(this.#run, update, what);
  }

  record(update: SessionUpdate): void {
    this.#host.recordFromRun(this.#run, update);
  }

  message(content?: ContentInput | readonly ContentInput[]): MessageBuilder {
    return this.#newMessage("agent_message", content);
  }

  async say(content: ContentInput | readonly ContentInput[]): Promise<MessageBuilder> {
    this.assertCanSend("turn.say");
    const message = new MessageBuilder(this, "agent_message", this.ids.newId("agent_message"));
    await message.set(content);
    return message;
  }

  thought(content?: ContentInput | readonly ContentInput[]): MessageBuilder {
    return this.#newMessage("agent_thought", content);
  }

  async stream(source: AsyncIterable<ContentInput> | Iterable<ContentInput>): Promise<MessageBuilder> {
    this.assertCanSend("turn.stream");
    const message = new MessageBuilder(this, "agent_message", this.ids.newId("agent_message"));
    await message.pipe(source);
    return message;
  }

  toolCall(init: ToolCallInit): TurnToolCall {
    return new TurnToolCall(this, this.toolCallId(init.toolCallId), init);
  }

  requestPermission(request: PermissionRequest): Promise<PermissionDecision> {
    return this.requestPermissionWith(request, undefined);
  }

  /** @internal `onSent` runs once the request was validated and sent. */
  async requestPermissionWith(
    request: PermissionRequest,
    onSent: (() => void) | undefined,
  ): Promise<PermissionDecision> {
    this.assertCanSend("turn.requestPermission");
    const options = request.options ?? DEFAULT_PERMISSION_OPTIONS;
    const ids = new Set(options.map((o) => o.optionId));
    if (ids.size !== options.length) throw new TypeError("turn.requestPermission: optionId values must be unique");
    const params: RequestPermissionRequest = { sessionId: this.sessionId, title: request.title, options: [...options] };
    if (request.description !== undefined) params.description = request.description;
    if (request.subject !== undefined) params.subject = request.subject;
    if (request._meta !== undefined) params._meta = request._meta;
    const pending = this.#host.clientRequest(this.#run, "session/request_permission", params, request.blocking ?? true);
    onSent?.();
    const outcome = await pending;
    return outcome.ok ? interpretPermissionResponse(outcome.value, options) : CANCELLED_PERMISSION;
  }

  async elicit(request: ElicitationRequest): Promise<ElicitationResult> {
    this.assertCanSend("turn.elicit");
    assertElicitationMode(request.mode, this.client.capabilities);
    const scope = {
      sessionId: this.sessionId,
      message: request.message,
      ...(request.toolCallId === undefined ? {} : { toolCallId: request.toolCallId }),
      ...(request._meta === undefined ? {} : { _meta: request._meta }),
    };
    let elicitationId: string | undefined;
    let params: CreateElicitationRequest;
    if (request.mode === "form") params = { ...scope, mode: "form", requestedSchema: request.requestedSchema };
    else {
      elicitationId = request.elicitationId ?? this.ids.newId("elicitation");
      params = { ...scope, mode: "url", elicitationId, url: request.url };
    }
    const outcome = await this.#host.clientRequest(this.#run, "elicitation/create", params, request.blocking ?? true);
    return interpretElicitationResponse(outcome.ok ? outcome.value : undefined, elicitationId);
  }

  completeElicitation(elicitationId: string): Promise<void> {
    return this.#host.notifyClient(this.#run, "elicitation/complete", { elicitationId }, "turn.completeElicitation");
  }

  onFollowUp(listener: (followUp: FollowUp) => void): { dispose(): void } {
    this.assertCanSend("turn.onFollowUp");
    this.#run.followUpListeners.add(listener);
    return { dispose: () => void this.#run.followUpListeners.delete(listener) };
  }

  followUps(): AsyncIterableIterator<FollowUp> {
    const buffered: FollowUp[] = [];
    let wake: (() => void) | undefined;
    const subscription = this.onFollowUp((followUp) => {
      buffered.push(followUp);
      wake?.();
    });
    const signal = this.signal;
    const onAbort = (): void => wake?.();
    signal.addEventListener("abort", onAbort, { once: true });
    const finish = (): IteratorResult<FollowUp> => {
      subscription.dispose();
      signal.removeEventListener("abort", onAbort);
      return { value: undefined, done: true };
    };
    const iterator: AsyncIterableIterator<FollowUp> = {
      [Symbol.asyncIterator]: () => iterator,
      next: async () => {
        for (;;) {
          const next = buffered.shift();
          if (next !== undefined) return { value: next, done: false };
          if (signal.aborted) return finish();
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
        }
      },
      return: async () => finish(),
    };
    return iterator;
  }

  #newMessage(
    kind: "agent_message" | "agent_thought",
    content: ContentInput | readonly ContentInput[] | undefined,
  ): MessageBuilder {
    this.assertCanSend(kind === "agent_message" ? "turn.message" : "turn.thought");
    const message = new MessageBuilder(
      this,
      kind,
      this.ids.newId(kind === "agent_message" ? "agent_message" : "thought"),
    );
    if (content !== undefined) void message.set(content);
    return message;
  }
}

export type { FollowUp, NoticeInput, PermissionOption };
