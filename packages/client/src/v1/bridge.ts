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
 *
 * What the client sends was validated on its way out, so it decodes as v2 (read with the
 * per-type decoders of the methods translated here, so a bundle keeps only those); what the
 * agent sends is decoded as v1 before it is read.
 */
import { CapabilityNotSupportedError, type DecodeResult, ErrorCodes, type MissingCapability } from "@acp-kit/protocol";
import {
  decodeCloseSessionRequest,
  decodeLoginAuthRequest,
  decodeNewSessionRequest,
  decodePromptRequest,
  decodeRequestPermissionResponse,
  decodeResumeSessionRequest,
  decodeSetSessionConfigOptionRequest,
} from "@acp-kit/protocol/decoders";
import { type Logger, RequestError } from "@acp-kit/protocol/jsonrpc";
import type { ResumeSessionRequest, SessionUpdate, SetSessionConfigOptionRequest } from "@acp-kit/protocol/types";
import {
  decodeErrorText,
  mcpServersToV1,
  readField,
  type InitializeResponse as V1InitializeResponse,
  type LoadSessionResponse as V1SetupResponse,
  decoders as v1Decoders,
  type WireId,
  type WireMessage,
  type WireSend,
} from "@acp-kit/protocol/v1";
import { missingV1Capability } from "./capabilities.js";
import type { V1ClientHandlers } from "./client-handlers.js";
import { errorOf, V1ClientMethods } from "./client-methods.js";
import { v1ClientMethod } from "./handlers.js";
import { type PromptInFlight, V1SessionState } from "./session-state.js";
import { permissionRequestToV2, permissionResponseToV1 } from "./values.js";

/** What one of the client's requests became, to translate its answer. */
type Sent =
  | { kind: "new" }
  | { kind: "prompt"; sessionId: string; prompt: PromptInFlight }
  | { kind: "resume"; sessionId: string; via: "load" | "resume"; suppress: boolean }
  | { kind: "set_mode"; sessionId: string; modeId: string }
  | { kind: "set_config_option"; sessionId: string };

type SendV1 = (v1Method: string, v1Params: unknown, sent?: Sent) => void | Promise<void>;

export interface BridgeIo {
  toPeer: WireSend;
  toLocal: WireSend;
  logger: Logger;
}

function decodedValue<T>(decoded: DecodeResult<T>): T | undefined {
  return decoded.ok ? decoded.value : undefined;
}

export class V1AgentBridge {
  readonly #io: BridgeIo;
  readonly #agent: V1InitializeResponse;
  readonly #handlers: V1ClientHandlers;
  readonly #sessions = new Map<string, V1SessionState>();
  readonly #sent = new Map<WireId, Sent>();
  /** Permission requests forwarded to the client, by the agent's request id. */
  readonly #permissions = new Set<WireId>();
  readonly #clientMethods: V1ClientMethods;
  #nextId = 0;

  constructor(io: BridgeIo, agent: V1InitializeResponse, handlers: V1ClientHandlers) {
    this.#io = io;
    this.#agent = agent;
    this.#handlers = handlers;
    this.#clientMethods = new V1ClientMethods((id, answer) => {
      void Promise.resolve(this.#io.toPeer({ jsonrpc: "2.0", id, ...answer })).catch(() => {});
    }, io.logger);
  }

  closed(): void {
    this.#clientMethods.closed();
  }

  /** What this v1 agent did not advertise for the client's `method` (the client refuses it locally). */
  missing(method: string): MissingCapability | undefined {
    return missingV1Capability(method, this.#agent.agentCapabilities);
  }

  #newState(sessionId: string): V1SessionState {
    return new V1SessionState(sessionId, (kind) => `v1-${kind}-${++this.#nextId}`);
  }

  #session(sessionId: string): V1SessionState {
    let state = this.#sessions.get(sessionId);
    if (state === undefined) {
      state = this.#newState(sessionId);
      this.#sessions.set(sessionId, state);
    }
    return state;
  }

  #answerLocally(id: WireId, result: unknown): void | Promise<void> {
    return this.#io.toLocal({ jsonrpc: "2.0", id, result });
  }

  #failLocally(id: WireId, error: RequestError): void | Promise<void> {
    return this.#io.toLocal({ jsonrpc: "2.0", id, error: errorOf(error) });
  }

  // ---------------------------------------------------------------- client → agent

  fromLocal(message: WireMessage): void | Promise<void> {
    const { id, method } = message;
    if (method === undefined) return this.#localResponse(message);
    if (id === undefined || id === null) return this.#io.toPeer(message);
    // The client refuses these before sending (see `missing`); a request sent on the raw
    // connection gets the same refusal as an answer, never the agent's -32601.
    const refused = this.missing(method);
    if (refused !== undefined) {
      const { message: text } = CapabilityNotSupportedError.of(refused);
      return this.#failLocally(
        id,
        new RequestError(ErrorCodes.MethodNotFound, text, { requirement: refused.requirement }),
      );
    }
    const send: SendV1 = (v1Method, v1Params, sent) => {
      if (sent !== undefined) this.#sent.set(id, sent);
      return this.#io.toPeer({ jsonrpc: "2.0", id, method: v1Method, params: v1Params });
    };
    // A request that does not decode goes on as it is, for the agent to refuse.
    const read = <T>(decode: (value: unknown) => DecodeResult<T>, then: (value: T) => void | Promise<void>) => {
      const decoded = decode(message.params);
      return decoded.ok ? then(decoded.value) : this.#io.toPeer(message);
    };
    switch (method) {
      case "session/new":
        return read(decodeNewSessionRequest, (params) =>
          send("session/new", { ...params, mcpServers: mcpServersToV1(params.mcpServers) }, { kind: "new" }),
        );
      case "session/prompt":
        return read(decodePromptRequest, (params) => {
          const { sessionId } = params;
          const state = this.#session(sessionId);
          const userMessageId = state.newMessageId("user");
          const prompt: PromptInFlight = { id, prompt: params.prompt, userMessageId, accepted: false };
          state.prompts.push(prompt);
          state.endMessage();
          return send("session/prompt", params, { kind: "prompt", sessionId, prompt });
        });
      case "session/resume":
        return read(decodeResumeSessionRequest, (params) => this.#resume(id, params, send));
      case "session/set_config_option":
        return read(decodeSetSessionConfigOptionRequest, (params) => this.#setConfigOption(id, params, send));
      case "session/close":
        return read(decodeCloseSessionRequest, (params) => {
          this.#sessions.delete(params.sessionId);
          // A v1 agent without `session/close` keeps the session; for this client it is closed.
          if (this.#agent.agentCapabilities?.sessionCapabilities?.close == null) return this.#answerLocally(id, {});
          return send("session/close", params);
        });
      case "auth/login":
        return read(decodeLoginAuthRequest, ({ methodId }) => send("authenticate", { methodId }));
      case "auth/logout":
        return send("logout", {});
      case "tool_call/cancel":
      case "terminal/cancel":
        return this.#failLocally(id, RequestError.methodNotFound(method));
      default:
        return this.#io.toPeer(message);
    }
  }

  /** The mode option is v1's `session/set_mode`; v1 takes id and boolean values only. */
  #setConfigOption(id: WireId, params: SetSessionConfigOptionRequest, send: SendV1): void | Promise<void> {
    const { sessionId } = params;
    if (this.#session(sessionId).isModeOption(params.configId)) {
      const modeId = String(params.value);
      return send("session/set_mode", { sessionId, modeId }, { kind: "set_mode", sessionId, modeId });
    }
    const sent: Sent = { kind: "set_config_option", sessionId };
    switch (params.type) {
      case "boolean":
        return send("session/set_config_option", params, sent);
      case "id": {
        const { type: _type, ...rest } = params;
        return send("session/set_config_option", rest, sent);
      }
      default:
        return this.#failLocally(id, RequestError.invalidParams(`v1 agents take no ${params.type} config values`));
    }
  }

  #resume(id: WireId, params: ResumeSessionRequest, send: SendV1): void | Promise<void> {
    const { sessionId } = params;
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
        { ...common, mcpServers: mcpServersToV1(params.mcpServers) },
        { kind: "resume", sessionId, via: "load", suppress: !replay },
      );
    }
    if (canResume && !replay) {
      if (params.mcpServers !== undefined) common.mcpServers = mcpServersToV1(params.mcpServers);
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
    const { id } = message;
    if (id === undefined || id === null || !this.#permissions.delete(id) || message.error !== undefined)
      return this.#io.toPeer(message);
    const answer = decodeRequestPermissionResponse(message.result);
    // An answer v1 cannot read is the one v1 answer that says nothing was chosen.
    const result = answer.ok ? permissionResponseToV1(answer.value) : { outcome: { outcome: "cancelled" } };
    return this.#io.toPeer({ jsonrpc: "2.0", id, result });
  }

  // ---------------------------------------------------------------- agent → client

  fromPeer(message: WireMessage): void | Promise<void> {
    const { id, method } = message;
    if (method === undefined) return this.#peerResponse(message);
    if (method === "session/update") return this.#update(message.params);
    if (method === "$/cancel_request") {
      const requestId = readField(message.params, "requestId");
      if ((typeof requestId === "string" || typeof requestId === "number") && this.#clientMethods.cancel(requestId))
        return;
    }
    if (id === undefined || id === null) return this.#io.toLocal(message);
    if (method === "session/request_permission") return this.#permission(id, message.params);
    const handling = v1ClientMethod(this.#handlers, method);
    if (handling !== undefined)
      return this.#clientMethods.handle(id, method, message.params, handling, (sessionId) => this.#activity(sessionId));
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
    const update = (u: SessionUpdate): WireMessage => ({
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

  #activity(sessionId: string): void {
    const state = this.#sessions.get(sessionId);
    if (state !== undefined) void this.#accept(state);
  }

  #update(params: unknown): void | Promise<void> {
    const decoded = v1Decoders["session/update"].params(params);
    if (!decoded.ok) {
      this.#io.logger.warn?.(`Dropped a v1 session/update: ${decodeErrorText(decoded.error)}`, { params });
      return;
    }
    const { sessionId, update } = decoded.value;
    // Only sessions this client opened are remembered: a peer cannot grow the map with made-up ids.
    const state = this.#sessions.get(sessionId) ?? this.#newState(sessionId);
    if (state.suppressReplay) return;
    void this.#accept(state);
    let last: Promise<void> | undefined;
    for (const v2 of state.toV2(update)) {
      last = this.#io.toLocal({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update: v2 } }) ?? last;
    }
    return last;
  }

  #permission(id: WireId, params: unknown): void | Promise<void> {
    const decoded = v1Decoders["session/request_permission"].params(params);
    if (!decoded.ok)
      return this.#io.toPeer({
        jsonrpc: "2.0",
        id,
        error: errorOf(
          RequestError.invalidParams(
            `Invalid params for session/request_permission: ${decodeErrorText(decoded.error)}`,
          ),
        ),
      });
    this.#activity(decoded.value.sessionId);
    // What the agent says after asking is a new message (qwen-code sends an empty chunk first).
    this.#sessions.get(decoded.value.sessionId)?.endMessage();
    this.#permissions.add(id);
    return this.#io.toLocal({
      jsonrpc: "2.0",
      id,
      method: "session/request_permission",
      params: permissionRequestToV2(decoded.value),
    });
  }

  /** The agent's answer to one of the client's requests. */
  #peerResponse(message: WireMessage): void | Promise<void> {
    const { id } = message;
    const sent = id === null || id === undefined ? undefined : this.#sent.get(id);
    if (sent === undefined || id === null || id === undefined) return this.#io.toLocal(message);
    this.#sent.delete(id);
    if (sent.kind === "prompt") return this.#promptEnded(sent.sessionId, sent.prompt, message);
    if (sent.kind === "resume") {
      const state = this.#session(sent.sessionId);
      state.suppressReplay = false;
      state.endMessage();
    }
    if (message.error !== undefined) return this.#io.toLocal(message);
    // An answer that does not decode as v1 goes on as it is, for the client to refuse.
    const result = message.result ?? {};
    switch (sent.kind) {
      case "new": {
        const answer = decodedValue(v1Decoders["session/new"].result(result));
        if (answer === undefined) return this.#io.toLocal(message);
        const state = this.#session(answer.sessionId);
        state.applySetup(answer);
        return this.#answerLocally(id, this.#withOptions({ sessionId: answer.sessionId }, state, answer));
      }
      case "resume": {
        const answer = decodedValue(
          sent.via === "load" ? v1Decoders["session/load"].result(result) : v1Decoders["session/resume"].result(result),
        );
        if (answer === undefined) return this.#io.toLocal(message);
        const state = this.#session(sent.sessionId);
        state.applySetup(answer);
        return this.#answerLocally(id, this.#withOptions({}, state, answer));
      }
      case "set_mode": {
        const state = this.#session(sent.sessionId);
        if (state.modes !== undefined) state.modes = { ...state.modes, currentModeId: sent.modeId };
        return this.#answerLocally(id, { configOptions: state.allConfigOptions() });
      }
      case "set_config_option": {
        const answer = decodedValue(v1Decoders["session/set_config_option"].result(result));
        if (answer === undefined) return this.#io.toLocal(message);
        const state = this.#session(sent.sessionId);
        state.applySetup(answer);
        return this.#answerLocally(id, { configOptions: state.allConfigOptions() });
      }
    }
  }

  #withOptions(base: Record<string, unknown>, state: V1SessionState, v1: V1SetupResponse) {
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
    const stopReason = readField(message.result, "stopReason");
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
    // The rest of the answer rides on the idle, as the SDK returns it: `_meta` (gemini-cli's
    // `quota`) as the idle's own, `usage` (token counts, unstable v1; Copilot) as `usage`.
    const meta = readField(message.result, "_meta");
    if (typeof meta === "object" && meta !== null && !Array.isArray(meta)) idle._meta = meta;
    const usage = readField(message.result, "usage");
    if (typeof usage === "object" && usage !== null) idle.usage = usage;
    return this.#io.toLocal({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update: idle } });
  }
}
