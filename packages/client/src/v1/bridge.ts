/**
 * The client-side v1 adapter: the client's connection speaks v2, the agent v1, and this
 * translates every message between them once `initialize` said 1.
 *
 * Requests out: `session/prompt` is sent as is and its v2 answer (`messageId` of a synthesized
 * user message) is held until the agent shows it started (any update, request) or answers; at
 * that point `running` and the user message are delivered too, and the v1 answer's
 * `stopReason` becomes the work's `idle`. `session/resume` becomes `session/load` when a replay
 * is asked for (or when the agent cannot resume), `session/set_config_option` on the mode
 * option becomes `session/set_mode`, `auth/*` become `authenticate`/`logout`.
 * Updates in: see `V1SessionState.toV2`. Requests in: permissions are reshaped for the client;
 * `fs/*` and `terminal/*` are answered here by the registered `V1ClientHandlers`.
 */
import { ErrorCodes, type Logger, RequestError } from "@acp-kit/protocol/jsonrpc";
import {
  type InitializeResponse as V1InitializeResponse,
  type SessionUpdate as V1SessionUpdate,
  decoders as v1Decoders,
  type WireMessage,
} from "@acp-kit/protocol/v1";
import { V1_CLIENT_METHODS, type V1ClientHandlers } from "./handlers.js";
import { type PromptInFlight, V1SessionState } from "./session-state.js";
import { mcpServersToV1, permissionRequestToV2, permissionResponseToV1 } from "./values.js";

type Id = string | number;

/** fs/terminal requests answered at once; beyond it the agent's messages wait to be read. */
const MAX_HANDLED_REQUESTS = 64;
type Send = (message: WireMessage) => void | Promise<void>;

/** What one of the client's requests became, to translate its answer. */
type Sent =
  | { kind: "new" }
  | { kind: "prompt"; sessionId: string; prompt: PromptInFlight }
  | { kind: "resume"; sessionId: string; via: "load" | "resume"; suppress: boolean }
  | { kind: "set_mode"; sessionId: string; modeId: string }
  | { kind: "set_config_option"; sessionId: string };

export interface BridgeIo {
  toPeer: Send;
  toLocal: Send;
  logger: Logger;
}

const decoderTable = v1Decoders as unknown as Record<
  string,
  { params: (v: unknown) => { ok: boolean; value?: unknown; error?: { path: string; message: string } } }
>;

function decodeV1Params<T>(method: string, params: unknown): { ok: true; value: T } | { ok: false; message: string } {
  const decoded = decoderTable[method]?.params(params);
  if (decoded === undefined) return { ok: false, message: `no v1 decoder for ${method}` };
  if (decoded.ok) return { ok: true, value: decoded.value as T };
  return { ok: false, message: `${decoded.error?.path || "/"}: ${decoded.error?.message}` };
}

function errorOf(error: unknown): { code: number; message: string; data?: unknown } {
  if (error instanceof RequestError)
    return error.data === undefined
      ? { code: error.code, message: error.message }
      : { code: error.code, message: error.message, data: error.data };
  return { code: ErrorCodes.InternalError, message: "Internal error" };
}

export class V1AgentBridge {
  readonly #io: BridgeIo;
  readonly #agent: V1InitializeResponse;
  readonly #handlers: V1ClientHandlers;
  readonly #sessions = new Map<string, V1SessionState>();
  readonly #sent = new Map<Id, Sent>();
  /** Permission requests forwarded to the client, by the agent's request id. */
  readonly #permissions = new Set<Id>();
  /** fs/terminal requests being answered here, by the agent's request id. */
  readonly #handling = new Map<Id, AbortController>();
  /** Reads waiting for a free handler slot (inbound backpressure, as the connection's own gate). */
  #slotWaiters: (() => void)[] = [];
  #nextId = 0;

  constructor(io: BridgeIo, agent: V1InitializeResponse, handlers: V1ClientHandlers) {
    this.#io = io;
    this.#agent = agent;
    this.#handlers = handlers;
  }

  closed(): void {
    for (const controller of this.#handling.values()) controller.abort();
    this.#handling.clear();
    for (const resume of this.#slotWaiters.splice(0)) resume();
  }

  #session(sessionId: string): V1SessionState {
    let state = this.#sessions.get(sessionId);
    if (state === undefined) {
      state = new V1SessionState(sessionId, (kind) => `v1-${kind}-${++this.#nextId}`);
      this.#sessions.set(sessionId, state);
    }
    return state;
  }

  #answerLocally(id: Id, result: unknown): void | Promise<void> {
    return this.#io.toLocal({ jsonrpc: "2.0", id, result });
  }

  #failLocally(id: Id, error: RequestError): void | Promise<void> {
    return this.#io.toLocal({ jsonrpc: "2.0", id, error: errorOf(error) });
  }

  // ---------------------------------------------------------------- client → agent

  fromLocal(message: WireMessage): void | Promise<void> {
    const { id, method } = message;
    if (method === undefined) return this.#localResponse(message);
    if (id === undefined || id === null) return this.#io.toPeer(message);
    const params = (message.params ?? {}) as Record<string, unknown>;
    const sessionId = params.sessionId as string;
    const send = (v1Method: string, v1Params: unknown, sent?: Sent): void | Promise<void> => {
      if (sent !== undefined) this.#sent.set(id, sent);
      return this.#io.toPeer({ jsonrpc: "2.0", id, method: v1Method, params: v1Params });
    };
    switch (method) {
      case "session/new":
        return send(
          "session/new",
          { ...params, mcpServers: mcpServersToV1(params.mcpServers as never) },
          { kind: "new" },
        );
      case "session/prompt": {
        const state = this.#session(sessionId);
        const prompt: PromptInFlight = {
          id,
          prompt: params.prompt as never,
          userMessageId: state.newMessageId("user"),
          accepted: false,
        };
        state.prompts.push(prompt);
        state.endMessage();
        return send("session/prompt", params, { kind: "prompt", sessionId, prompt });
      }
      case "session/resume":
        return this.#resume(id, params, send);
      case "session/set_config_option": {
        const state = this.#session(sessionId);
        const configId = params.configId as string;
        if (state.isModeOption(configId)) {
          const modeId = String(params.value);
          return send("session/set_mode", { sessionId, modeId }, { kind: "set_mode", sessionId, modeId });
        }
        const { type, ...rest } = params;
        if (type !== "id" && type !== "boolean")
          return this.#failLocally(id, RequestError.invalidParams(`v1 agents take no ${String(type)} config values`));
        return send("session/set_config_option", type === "boolean" ? params : rest, {
          kind: "set_config_option",
          sessionId,
        });
      }
      case "session/close":
        // A v1 agent without `session/close` keeps the session; for this client it is closed.
        if (this.#agent.agentCapabilities?.sessionCapabilities?.close == null) {
          this.#sessions.delete(sessionId);
          return this.#answerLocally(id, {});
        }
        this.#sessions.delete(sessionId);
        return send("session/close", params);
      case "auth/login":
        return send("authenticate", { methodId: params.methodId });
      case "auth/logout":
        return send("logout", {});
      case "tool_call/cancel":
      case "terminal/cancel":
        return this.#failLocally(id, RequestError.methodNotFound(method));
      default:
        return this.#io.toPeer(message);
    }
  }

  #resume(id: Id, params: Record<string, unknown>, send: (m: string, p: unknown, s?: Sent) => void | Promise<void>) {
    const sessionId = params.sessionId as string;
    const capabilities = this.#agent.agentCapabilities;
    const canLoad = capabilities?.loadSession === true;
    const canResume = capabilities?.sessionCapabilities?.resume != null;
    const replay = params.replayFrom != null;
    const common: Record<string, unknown> = { sessionId, cwd: params.cwd };
    if (Array.isArray(params.additionalDirectories)) common.additionalDirectories = params.additionalDirectories;
    if (params._meta != null) common._meta = params._meta;
    this.#session(sessionId).endMessage();
    if ((replay || !canResume) && canLoad) {
      this.#session(sessionId).suppressReplay = !replay;
      return send(
        "session/load",
        { ...common, mcpServers: mcpServersToV1(params.mcpServers as never) },
        { kind: "resume", sessionId, via: "load", suppress: !replay },
      );
    }
    if (canResume && !replay) {
      if (params.mcpServers !== undefined) common.mcpServers = mcpServersToV1(params.mcpServers as never);
      return send("session/resume", common, { kind: "resume", sessionId, via: "resume", suppress: false });
    }
    return this.#failLocally(
      id,
      RequestError.invalidParams(
        replay
          ? "This v1 agent cannot replay a session (no loadSession capability)"
          : "This v1 agent can neither resume nor load sessions",
      ),
    );
  }

  /** The client's answer to a request the agent sent. */
  #localResponse(message: WireMessage): void | Promise<void> {
    const id = message.id as Id;
    if (!this.#permissions.delete(id) || message.error !== undefined) return this.#io.toPeer(message);
    return this.#io.toPeer({ jsonrpc: "2.0", id, result: permissionResponseToV1(message.result as never) });
  }

  // ---------------------------------------------------------------- agent → client

  fromPeer(message: WireMessage): void | Promise<void> {
    const { id, method } = message;
    if (method === undefined) return this.#peerResponse(message);
    if (method === "session/update") return this.#update(message.params);
    if (method === "$/cancel_request") {
      const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if ((typeof requestId === "string" || typeof requestId === "number") && this.cancelHandled(requestId)) return;
    }
    if (id === undefined || id === null) return this.#io.toLocal(message);
    if (method === "session/request_permission") return this.#permission(id, message.params);
    if (Object.hasOwn(V1_CLIENT_METHODS, method)) return this.#clientMethod(id, method, message.params);
    return this.#io.toLocal(message);
  }

  /**
   * Delivers the held start of a prompt (running, the user message, the v2 answer) once: the
   * given one, else the oldest one not started yet (the one the agent's activity belongs to).
   */
  #accept(state: V1SessionState, which?: PromptInFlight): void | Promise<void> {
    const prompt = which ?? state.prompts.find((p) => !p.accepted);
    if (prompt === undefined || prompt.accepted) return;
    prompt.accepted = true;
    const { sessionId } = state;
    const update = (u: Record<string, unknown>): WireMessage => ({
      jsonrpc: "2.0",
      method: "session/update",
      params: { sessionId, update: u },
    });
    const results = [
      this.#io.toLocal(update({ sessionUpdate: "state_update", state: "running" })),
      this.#io.toLocal(
        update({ sessionUpdate: "user_message", messageId: prompt.userMessageId, content: prompt.prompt }),
      ),
      this.#io.toLocal({ jsonrpc: "2.0", id: prompt.id, result: { messageId: prompt.userMessageId } }),
    ];
    return results.find((r) => r !== undefined);
  }

  #activity(sessionId: unknown): void {
    if (typeof sessionId !== "string") return;
    const state = this.#sessions.get(sessionId);
    if (state !== undefined) void this.#accept(state);
  }

  #update(params: unknown): void | Promise<void> {
    const decoded = decodeV1Params<{ sessionId: string; update: V1SessionUpdate }>("session/update", params);
    if (!decoded.ok) {
      this.#io.logger.warn?.(`Dropped a v1 session/update: ${decoded.message}`, { params });
      return;
    }
    const { sessionId, update } = decoded.value;
    // Only sessions this client opened are remembered: a peer cannot grow the map with made-up ids.
    const state =
      this.#sessions.get(sessionId) ?? new V1SessionState(sessionId, (kind) => `v1-${kind}-${++this.#nextId}`);
    if (state.suppressReplay) return;
    void this.#accept(state);
    let last: Promise<void> | undefined;
    for (const v2 of state.toV2(update)) {
      last = this.#io.toLocal({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update: v2 } }) ?? last;
    }
    return last;
  }

  #permission(id: Id, params: unknown): void | Promise<void> {
    const decoded = decodeV1Params<Parameters<typeof permissionRequestToV2>[0]>("session/request_permission", params);
    if (!decoded.ok)
      return this.#io.toPeer({
        jsonrpc: "2.0",
        id,
        error: errorOf(RequestError.invalidParams(`Invalid params for session/request_permission: ${decoded.message}`)),
      });
    this.#activity(decoded.value.sessionId);
    this.#permissions.add(id);
    return this.#io.toLocal({
      jsonrpc: "2.0",
      id,
      method: "session/request_permission",
      params: permissionRequestToV2(decoded.value),
    });
  }

  #clientMethod(id: Id, method: string, params: unknown): void | Promise<void> {
    const name = V1_CLIENT_METHODS[method] as keyof V1ClientHandlers;
    const handler = this.#handlers[name] as
      | ((params: unknown, context: { signal: AbortSignal }) => unknown)
      | undefined;
    const reply = (answer: { result: unknown } | { error: ReturnType<typeof errorOf> }): void => {
      if (this.#handling.delete(id)) this.#slotWaiters.shift()?.();
      void Promise.resolve(this.#io.toPeer({ jsonrpc: "2.0", id, ...answer })).catch(() => {});
    };
    if (handler === undefined) return reply({ error: errorOf(RequestError.methodNotFound(method)) });
    const decoded = decodeV1Params(method, params);
    if (!decoded.ok)
      return reply({ error: errorOf(RequestError.invalidParams(`Invalid params for ${method}: ${decoded.message}`)) });
    this.#activity((decoded.value as { sessionId?: unknown }).sessionId);
    const controller = new AbortController();
    this.#handling.set(id, controller);
    Promise.resolve()
      .then(() => handler(decoded.value, { signal: controller.signal }))
      .then(
        (result) => reply({ result: result ?? {} }),
        (error: unknown) => {
          if (!(error instanceof RequestError)) this.#io.logger.error?.(`Handler for ${method} failed`, error);
          reply({ error: errorOf(error) });
        },
      );
    // At the limit, reading pauses until one of the requests was answered.
    if (this.#handling.size < MAX_HANDLED_REQUESTS) return;
    return new Promise<void>((resolve) => this.#slotWaiters.push(resolve));
  }

  /** The agent's `$/cancel_request` for an fs/terminal request answered here. */
  cancelHandled(id: Id): boolean {
    const controller = this.#handling.get(id);
    if (controller === undefined) return false;
    controller.abort();
    return true;
  }

  /** The agent's answer to one of the client's requests. */
  #peerResponse(message: WireMessage): void | Promise<void> {
    const id = message.id as Id;
    const sent = id === null || id === undefined ? undefined : this.#sent.get(id);
    if (sent === undefined) return this.#io.toLocal(message);
    this.#sent.delete(id);
    const result = (message.result ?? {}) as Record<string, unknown>;
    switch (sent.kind) {
      case "prompt":
        return this.#promptEnded(sent.sessionId, sent.prompt, message);
      case "new": {
        if (message.error !== undefined) return this.#io.toLocal(message);
        const state = this.#session(result.sessionId as string);
        state.applySetup(result as never);
        return this.#answerLocally(id, this.#withOptions({ sessionId: result.sessionId }, state, result));
      }
      case "resume": {
        const state = this.#session(sent.sessionId);
        state.suppressReplay = false;
        state.endMessage();
        if (message.error !== undefined) return this.#io.toLocal(message);
        state.applySetup(result as never);
        return this.#answerLocally(id, this.#withOptions({}, state, result));
      }
      case "set_mode": {
        if (message.error !== undefined) return this.#io.toLocal(message);
        const state = this.#session(sent.sessionId);
        if (state.modes !== undefined) state.modes = { ...state.modes, currentModeId: sent.modeId };
        return this.#answerLocally(id, { configOptions: state.allConfigOptions() });
      }
      case "set_config_option": {
        if (message.error !== undefined) return this.#io.toLocal(message);
        const state = this.#session(sent.sessionId);
        state.applySetup(result as never);
        return this.#answerLocally(id, { configOptions: state.allConfigOptions() });
      }
    }
  }

  #withOptions(base: Record<string, unknown>, state: V1SessionState, v1: Record<string, unknown>) {
    const options = state.allConfigOptions();
    const out: Record<string, unknown> = { ...base };
    if (options.length > 0) out.configOptions = options;
    if (v1._meta != null) out._meta = v1._meta;
    return out;
  }

  /** The v1 prompt answer: the work's end (`idle` + stop reason), or the prompt's refusal. */
  #promptEnded(sessionId: string, prompt: PromptInFlight, message: WireMessage): void | Promise<void> {
    const state = this.#session(sessionId);
    state.prompts = state.prompts.filter((p) => p !== prompt);
    state.endMessage();
    if (message.error !== undefined && !prompt.accepted) return this.#io.toLocal(message);
    void this.#accept(state, prompt);
    const stopReason = (message.result as { stopReason?: unknown } | undefined)?.stopReason;
    // A stop reason this version does not list goes on as is (v2 keeps unknown ones); a missing
    // one is the agent's error, reported as the work's.
    const invalid = message.error === undefined && (typeof stopReason !== "string" || stopReason === "");
    const error = message.error ?? {
      code: ErrorCodes.InternalError,
      message: "Invalid v1 result for session/prompt: /stopReason: expected a string",
    };
    const idle: Record<string, unknown> =
      message.error !== undefined || invalid
        ? { sessionUpdate: "state_update", state: "idle", stopReason: "error", error }
        : { sessionUpdate: "state_update", state: "idle", stopReason };
    return this.#io.toLocal({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update: idle } });
  }
}
