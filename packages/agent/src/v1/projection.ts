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
import { ErrorCodes, type Logger } from "@acp-kit/protocol/jsonrpc";
import type { RequestPermissionRequest, SessionConfigOption } from "@acp-kit/protocol/types";
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

/** A v1 prompt on its way: inserted (its user message went by), answered in v2, and its end if known. */
interface PendingPrompt {
  readonly id: Id;
  inserted: boolean;
  answered: boolean;
  end?: WireMessage;
}

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
  /** v1 prompts not answered yet, per session, oldest first. */
  readonly #prompts = new Map<string, PendingPrompt[]>();
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
      case "session/prompt": {
        const pending = this.#prompts.get(sessionId) ?? [];
        pending.push({ id, inserted: false, answered: false });
        this.#prompts.set(sessionId, pending);
        return send("session/prompt", params, { kind: "prompt", sessionId });
      }
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
    // The engine sends a prompt's user message when it inserts it (into new or running work).
    if (update.sessionUpdate === "user_message" && !this.#session(sessionId).replaying) {
      const next = this.#prompts.get(sessionId)?.find((p) => !p.inserted);
      if (next !== undefined) next.inserted = true;
    }
    let last: Promise<void> | undefined;
    for (const v1 of this.#session(sessionId).toV1(update as never)) last = this.#notify(sessionId, v1) ?? last;
    return last;
  }

  /**
   * The work's idle ends every prompt inserted into it: those already answered in v2 get their
   * v1 answer now, the others when their v2 answer goes by. Prompts still queued wait.
   */
  #workEnded(sessionId: string, idle: Record<string, unknown>): void | Promise<void> {
    const pending = this.#prompts.get(sessionId) ?? [];
    let last: Promise<void> | undefined;
    for (const prompt of pending.filter((p) => p.inserted)) {
      const end = this.#promptAnswer(prompt.id, idle);
      if (prompt.answered) last = this.#io.toPeer(end) ?? last;
      else prompt.end = end;
    }
    this.#keepPending(
      sessionId,
      pending.filter((p) => !(p.inserted && p.answered)),
    );
    return last;
  }

  #keepPending(sessionId: string, pending: PendingPrompt[]): void {
    if (pending.length === 0) this.#prompts.delete(sessionId);
    else this.#prompts.set(sessionId, pending);
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
      if (sent.kind === "prompt")
        this.#keepPending(
          sent.sessionId,
          (this.#prompts.get(sent.sessionId) ?? []).filter((p) => p.id !== id),
        );
      return this.#io.toPeer(message);
    }
    const result = (message.result ?? {}) as Record<string, unknown>;
    const answer = (value: unknown): void | Promise<void> => this.#io.toPeer({ jsonrpc: "2.0", id, result: value });
    switch (sent.kind) {
      case "prompt": {
        const pending = this.#prompts.get(sent.sessionId) ?? [];
        const prompt = pending.find((p) => p.id === id);
        if (prompt === undefined) return;
        // Answered in v2 means inserted, whether or not its user message was seen.
        prompt.inserted = true;
        prompt.answered = true;
        if (prompt.end === undefined) return;
        this.#keepPending(
          sent.sessionId,
          pending.filter((p) => p !== prompt),
        );
        return this.#io.toPeer(prompt.end);
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
