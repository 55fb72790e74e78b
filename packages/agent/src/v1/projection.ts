/**
 * The agent-side v1 projection: the agent's connection speaks v2 (the turn engine is
 * unchanged), the client v1, and this translates every message between them once the client
 * asked for version 1.
 *
 * A v1 `session/prompt` is answered at the end of the work, with its stop reason: the v2
 * answer (`messageId`) is held back and the work's `idle` sends the v1 answer to every prompt
 * of that session still waiting (a follow-up joins the running work in v2, so one idle ends
 * both); an `error` stop is sent as a JSON-RPC error. `session/load` is v2's resume with a
 * replay; `session/set_mode` sets the option of category `mode`; `authenticate`/`logout` are
 * `auth/login`/`auth/logout`. Updates: see `V1SessionProjection`.
 */
import { ErrorCodes, type Logger, type RequestPermissionRequest, type SessionConfigOption } from "@acp-kit/protocol";
import {
  type ClientCapabilities as V1ClientCapabilities,
  decoders as v1Decoders,
  type WireMessage,
} from "@acp-kit/protocol/v1";
import { V1SessionProjection } from "./session-projection.js";
import {
  agentCapabilitiesToV1,
  authMethodsToV1,
  configOptionsToV1,
  mcpServersToV2,
  modeOptionOf,
  modesOf,
  permissionRequestToV1,
} from "./values.js";

type Id = string | number;
type Send = (message: WireMessage) => void | Promise<void>;

type Sent =
  | { kind: "new" }
  | { kind: "close"; sessionId: string }
  | { kind: "prompt"; sessionId: string }
  | { kind: "load" | "resume"; sessionId: string }
  | { kind: "set_mode"; sessionId: string }
  | { kind: "set_config_option"; sessionId: string };

const V1_STOP_REASONS = new Set(["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"]);

const decoderTable = v1Decoders as unknown as Record<
  string,
  { params: (v: unknown) => { ok: boolean; value?: unknown; error?: { path: string; message: string } } } | undefined
>;

export interface ProjectionIo {
  toPeer: Send;
  toLocal: Send;
  logger: Logger;
}

export class V1ClientProjection {
  readonly #io: ProjectionIo;
  readonly #client: V1ClientCapabilities;
  readonly #sessions = new Map<string, V1SessionProjection>();
  /** What each of the client's requests became, by id, to translate the agent's answer. */
  readonly #sent = new Map<Id, Sent>();
  /** v1 prompts waiting for their work's end, per session, oldest first. */
  readonly #prompts = new Map<string, Id[]>();
  /** An idle that came before the v2 answer of a prompt (the answer then ends it at once). */
  readonly #earlyStops = new Map<Id, WireMessage>();
  /** Config options per session, to find the mode option. */
  readonly #options = new Map<string, SessionConfigOption[]>();
  #permissionIds = 0;

  constructor(io: ProjectionIo, client: V1ClientCapabilities) {
    this.#io = io;
    this.#client = client;
  }

  #session(sessionId: string): V1SessionProjection {
    let session = this.#sessions.get(sessionId);
    if (session === undefined) {
      session = new V1SessionProjection(this.#client);
      this.#sessions.set(sessionId, session);
    }
    return session;
  }

  #notify(sessionId: string, update: Record<string, unknown>): void | Promise<void> {
    return this.#io.toPeer({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update } });
  }

  // ---------------------------------------------------------------- client (v1) → agent (v2)

  fromPeer(message: WireMessage): void | Promise<void> {
    const { id, method } = message;
    if (method === undefined || id === undefined || id === null) return this.#io.toLocal(message);
    const params = (message.params ?? {}) as Record<string, unknown>;
    const decoded = decoderTable[method]?.params(params);
    if (decoded !== undefined && !decoded.ok) {
      const where = decoded.error?.path || "/";
      return this.#io.toPeer({
        jsonrpc: "2.0",
        id,
        error: {
          code: ErrorCodes.InvalidParams,
          message: `Invalid params for ${method}: ${where}: ${decoded.error?.message}`,
        },
      });
    }
    const sessionId = params.sessionId as string;
    const send = (v2Method: string, v2Params: unknown, sent?: Sent): void | Promise<void> => {
      if (sent !== undefined) this.#sent.set(id, sent);
      return this.#io.toLocal({ jsonrpc: "2.0", id, method: v2Method, params: v2Params });
    };
    const environment = (): Record<string, unknown> => {
      const out: Record<string, unknown> = { cwd: params.cwd, mcpServers: mcpServersToV2(params.mcpServers as never) };
      if (Array.isArray(params.additionalDirectories)) out.additionalDirectories = params.additionalDirectories;
      return out;
    };
    switch (method) {
      case "session/new":
        return send("session/new", environment(), { kind: "new" });
      case "session/prompt":
        return send("session/prompt", params, { kind: "prompt", sessionId });
      case "session/load":
        this.#session(sessionId).replaying = true;
        return send(
          "session/resume",
          { sessionId, ...environment(), replayFrom: { type: "start" } },
          { kind: "load", sessionId },
        );
      case "session/resume":
        return send("session/resume", { sessionId, ...environment() }, { kind: "resume", sessionId });
      case "session/set_mode": {
        const option = modeOptionOf(this.#options.get(sessionId) ?? []);
        if (option === undefined)
          return this.#io.toPeer({
            jsonrpc: "2.0",
            id,
            error: { code: ErrorCodes.InvalidParams, message: "This session has no modes" },
          });
        return send(
          "session/set_config_option",
          { sessionId, configId: option.configId, type: "id", value: params.modeId },
          { kind: "set_mode", sessionId },
        );
      }
      case "session/set_config_option": {
        const { type, ...rest } = params;
        return send(
          "session/set_config_option",
          { ...rest, type: type === "boolean" ? "boolean" : "id" },
          { kind: "set_config_option", sessionId },
        );
      }
      case "session/close":
      case "session/delete":
        return send(method, params, { kind: "close", sessionId });
      case "authenticate":
        return send("auth/login", { methodId: params.methodId });
      case "logout":
        return send("auth/logout", {});
      default:
        return this.#io.toLocal(message);
    }
  }

  // ---------------------------------------------------------------- agent (v2) → client (v1)

  fromLocal(message: WireMessage): void | Promise<void> {
    const { id, method } = message;
    if (method === undefined) return this.#response(message);
    if (method === "session/update") return this.#update(message.params as { sessionId: string; update: never });
    if (method === "session/request_permission" && id !== undefined && id !== null) {
      const request = message.params as RequestPermissionRequest;
      const v1 = permissionRequestToV1(request, `permission-${++this.#permissionIds}`);
      const session = this.#session(request.sessionId);
      const toolCall = v1.toolCall as Record<string, unknown>;
      // A v1 client expects the tool call a permission is about to exist already.
      if (!session.knowsToolCall(toolCall.toolCallId as string))
        void this.#notify(request.sessionId, session.announceToolCall({ ...toolCall }));
      return this.#io.toPeer({ jsonrpc: "2.0", id, method, params: v1 });
    }
    return this.#io.toPeer(message);
  }

  #update(params: {
    sessionId: string;
    update: { sessionUpdate: string } & Record<string, unknown>;
  }): void | Promise<void> {
    const { sessionId, update } = params;
    if (update.sessionUpdate === "state_update") {
      if (update.state === "idle") return this.#workEnded(sessionId, update);
      return;
    }
    if (update.sessionUpdate === "config_option_update")
      this.#options.set(sessionId, update.configOptions as SessionConfigOption[]);
    let last: Promise<void> | undefined;
    for (const v1 of this.#session(sessionId).toV1(update as never)) last = this.#notify(sessionId, v1) ?? last;
    return last;
  }

  /** The work's idle: every waiting prompt of the session is answered with its stop reason. */
  #workEnded(sessionId: string, idle: Record<string, unknown>): void | Promise<void> {
    const waiting = this.#prompts.get(sessionId) ?? [];
    this.#prompts.delete(sessionId);
    let last: Promise<void> | undefined;
    for (const id of waiting) last = this.#io.toPeer(this.#promptAnswer(id, idle)) ?? last;
    // A prompt whose v2 answer has not gone by yet is answered when it does.
    for (const [id, sent] of this.#sent)
      if (sent.kind === "prompt" && sent.sessionId === sessionId)
        this.#earlyStops.set(id, this.#promptAnswer(id, idle));
    return last;
  }

  #promptAnswer(id: Id, idle: Record<string, unknown>): WireMessage {
    const stopReason = idle.stopReason;
    if (stopReason === "error") {
      const error = (idle.error as { code?: number; message?: string; data?: unknown } | undefined) ?? {};
      const out: WireMessage["error"] = {
        code: error.code ?? ErrorCodes.InternalError,
        message: error.message ?? "The agent's work ended with an error",
      };
      if (error.data !== undefined) out.data = error.data;
      return { jsonrpc: "2.0", id, error: out };
    }
    return {
      jsonrpc: "2.0",
      id,
      result: {
        stopReason: typeof stopReason === "string" && V1_STOP_REASONS.has(stopReason) ? stopReason : "end_turn",
      },
    };
  }

  #response(message: WireMessage): void | Promise<void> {
    const id = message.id;
    const sent = id === undefined || id === null ? undefined : this.#sent.get(id);
    if (sent === undefined || id === undefined || id === null) return this.#io.toPeer(message);
    this.#sent.delete(id);
    if (message.error !== undefined) {
      // A load of a session that is not there leaves nothing behind.
      if (sent.kind === "load" && !this.#options.has(sent.sessionId)) this.#sessions.delete(sent.sessionId);
      else if (sent.kind === "load") this.#session(sent.sessionId).replaying = false;
      this.#earlyStops.delete(id);
      return this.#io.toPeer(message);
    }
    const result = (message.result ?? {}) as Record<string, unknown>;
    const answer = (value: unknown): void | Promise<void> => this.#io.toPeer({ jsonrpc: "2.0", id, result: value });
    switch (sent.kind) {
      case "prompt": {
        const early = this.#earlyStops.get(id);
        this.#earlyStops.delete(id);
        if (early !== undefined) return this.#io.toPeer(early);
        const waiting = this.#prompts.get(sent.sessionId) ?? [];
        waiting.push(id);
        this.#prompts.set(sent.sessionId, waiting);
        return;
      }
      case "new":
        return this.#setup(id, result.sessionId as string, result, { sessionId: result.sessionId });
      case "load":
      case "resume":
        this.#session(sent.sessionId).replaying = false;
        return this.#setup(id, sent.sessionId, result, {});
      case "set_mode":
        this.#options.set(sent.sessionId, (result.configOptions as SessionConfigOption[]) ?? []);
        return answer({});
      case "close":
        this.#sessions.delete(sent.sessionId);
        this.#options.delete(sent.sessionId);
        this.#prompts.delete(sent.sessionId);
        return answer(result);
      case "set_config_option": {
        const options = (result.configOptions as SessionConfigOption[]) ?? [];
        this.#options.set(sent.sessionId, options);
        return answer({ configOptions: configOptionsToV1(options) });
      }
    }
  }

  /** A `session/new|load|resume` answer: options and modes in the v1 answer, commands as an update. */
  #setup(id: Id, sessionId: string, v2: Record<string, unknown>, base: Record<string, unknown>) {
    const options = (v2.configOptions as SessionConfigOption[] | undefined) ?? [];
    this.#options.set(sessionId, options);
    this.#session(sessionId).noteOptions(options);
    const result: Record<string, unknown> = { ...base };
    if (options.length > 0) result.configOptions = configOptionsToV1(options);
    const modes = modesOf(options);
    if (modes !== undefined) result.modes = modes;
    const sent = this.#io.toPeer({ jsonrpc: "2.0", id, result });
    const commands = v2.availableCommands as unknown[] | undefined;
    if (commands !== undefined && commands.length > 0) {
      for (const update of this.#session(sessionId).toV1({
        sessionUpdate: "available_commands_update",
        availableCommands: commands,
      } as never))
        void this.#notify(sessionId, update);
    }
    return sent;
  }

  /** The v1 `initialize` answer for the agent's v2 one. */
  static initializeResult(v2: Record<string, unknown>): Record<string, unknown> {
    const result: Record<string, unknown> = {
      protocolVersion: 1,
      agentInfo: v2.info,
      agentCapabilities: agentCapabilitiesToV1(v2.capabilities as never),
    };
    const authMethods = authMethodsToV1(v2.authMethods as never);
    if (authMethods.length > 0) result.authMethods = authMethods;
    if (v2._meta != null) result._meta = v2._meta;
    return result;
  }
}
