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
import { type DecodeError, type DecodeResult, decoders, ErrorCodes } from "@acp-kit/protocol";
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import type {
  IdleStateUpdate,
  NewSessionResponse,
  SessionConfigOption,
  UpdateSessionNotification,
} from "@acp-kit/protocol/types";
import {
  decodeErrorText,
  decodeV1Params,
  mcpServersToV2,
  stopReasonToV1,
  type ClientCapabilities as V1ClientCapabilities,
  type McpServer as V1McpServer,
  decoders as v1Decoders,
  type WireId,
  type WireMessage,
  type WireSend,
} from "@acp-kit/protocol/v1";
import { type ProjectedUpdate, V1SessionProjection } from "./session-projection.js";
import { configOptionsToV1, modeOptionOf, modesOf, permissionRequestToV1 } from "./values.js";

type Sent =
  | { kind: "new" }
  | { kind: "close"; sessionId: string }
  | { kind: "prompt"; sessionId: string }
  | { kind: "load" | "resume"; sessionId: string }
  | { kind: "set_mode"; sessionId: string }
  | { kind: "set_config_option"; sessionId: string };

/** A v1 prompt on its way: inserted (its user message went by), answered in v2, and its end if known. */
interface PendingPrompt {
  readonly id: WireId;
  inserted: boolean;
  answered: boolean;
  end?: WireMessage;
}

/** What a v1 `session/new|load|resume` brings along: where to work and the MCP servers. */
interface V1Environment {
  cwd: string;
  mcpServers?: V1McpServer[];
  additionalDirectories?: string[];
}

function environmentToV2(params: V1Environment): Record<string, unknown> {
  const out: Record<string, unknown> = { cwd: params.cwd, mcpServers: mcpServersToV2(params.mcpServers) };
  if (Array.isArray(params.additionalDirectories)) out.additionalDirectories = params.additionalDirectories;
  return out;
}

export interface ProjectionIo {
  toPeer: WireSend;
  toLocal: WireSend;
  logger: Logger;
}

export class V1ClientProjection {
  readonly #io: ProjectionIo;
  readonly #client: V1ClientCapabilities;
  readonly #sessions = new Map<string, V1SessionProjection>();
  /** What each of the client's requests became, by id, to translate the agent's answer. */
  readonly #sent = new Map<WireId, Sent>();
  /** v1 prompts not answered yet, per session, oldest first. */
  readonly #prompts = new Map<string, PendingPrompt[]>();
  /** Config options per session, to find the mode option. */
  readonly #options = new Map<string, SessionConfigOption[]>();
  #permissionIds = 0;
  /** Permission requests whose question was added to a tool call's content, by request id. */
  readonly #asked = new Map<WireId, { sessionId: string; toolCallId: string }>();

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

  #notify(sessionId: string, update: ProjectedUpdate): void | Promise<void> {
    return this.#io.toPeer({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update } });
  }

  // ---------------------------------------------------------------- client (v1) → agent (v2)

  fromPeer(message: WireMessage): void | Promise<void> {
    const { id, method } = message;
    if (method === undefined && id !== undefined && id !== null) this.#answered(id);
    if (method === undefined || id === undefined || id === null) return this.#io.toLocal(message);
    const params = message.params ?? {};
    const refuse = ({ error }: { error: DecodeError }): void | Promise<void> =>
      this.#io.toPeer({
        jsonrpc: "2.0",
        id,
        error: { code: ErrorCodes.InvalidParams, message: `Invalid params for ${method}: ${decodeErrorText(error)}` },
      });
    // Params that do not decode as v1 are refused before the engine sees them.
    const read = <T>(decode: (value: unknown) => DecodeResult<T>, then: (value: T) => void | Promise<void>) => {
      const decoded = decode(params);
      return decoded.ok ? then(decoded.value) : refuse(decoded);
    };
    const send = (v2Method: string, v2Params: unknown, sent?: Sent): void | Promise<void> => {
      if (sent !== undefined) this.#sent.set(id, sent);
      return this.#io.toLocal({ jsonrpc: "2.0", id, method: v2Method, params: v2Params });
    };
    switch (method) {
      case "session/new":
        return read(v1Decoders[method].params, (request) =>
          send("session/new", environmentToV2(request), { kind: "new" }),
        );
      case "session/prompt":
        return read(v1Decoders[method].params, (request) => {
          const { sessionId } = request;
          const pending = this.#prompts.get(sessionId) ?? [];
          pending.push({ id, inserted: false, answered: false });
          this.#prompts.set(sessionId, pending);
          // The prompt goes on as the client wrote it: blocks v1 does not know are the engine's to judge.
          return send("session/prompt", params, { kind: "prompt", sessionId });
        });
      case "session/load":
        return read(v1Decoders[method].params, (request) => {
          const { sessionId } = request;
          this.#session(sessionId).replaying = true;
          const resume = { sessionId, ...environmentToV2(request), replayFrom: { type: "start" } };
          return send("session/resume", resume, { kind: "load", sessionId });
        });
      case "session/resume":
        return read(v1Decoders[method].params, ({ sessionId, ...request }) =>
          send("session/resume", { sessionId, ...environmentToV2(request) }, { kind: "resume", sessionId }),
        );
      case "session/set_mode":
        return read(v1Decoders[method].params, ({ sessionId, modeId }) => {
          const option = modeOptionOf(this.#options.get(sessionId) ?? []);
          if (option === undefined)
            return this.#io.toPeer({
              jsonrpc: "2.0",
              id,
              error: { code: ErrorCodes.InvalidParams, message: "This session has no modes" },
            });
          const request = { sessionId, configId: option.configId, type: "id", value: modeId };
          return send("session/set_config_option", request, { kind: "set_mode", sessionId });
        });
      case "session/set_config_option":
        return read(v1Decoders[method].params, (request) => {
          const sent: Sent = { kind: "set_config_option", sessionId: request.sessionId };
          // v1 tags only boolean values; an untagged value is an id.
          if ("type" in request && request.type === "boolean") return send(method, request, sent);
          return send(method, { ...request, type: "id" }, sent);
        });
      case "session/close":
      case "session/delete":
        return read(v1Decoders[method].params, ({ sessionId }) => send(method, params, { kind: "close", sessionId }));
      case "authenticate":
        return read(v1Decoders[method].params, ({ methodId }) => send("auth/login", { methodId }));
      case "logout":
        return read(v1Decoders[method].params, () => send("auth/logout", {}));
      default: {
        const decoded = decodeV1Params(method, params);
        return decoded === undefined || decoded.ok ? this.#io.toLocal(message) : refuse(decoded);
      }
    }
  }

  // ---------------------------------------------------------------- agent (v2) → client (v1)

  fromLocal(message: WireMessage): void | Promise<void> {
    const { id, method } = message;
    if (method === undefined) return this.#response(message);
    if (method === "session/update") {
      const decoded = decoders[method].params(message.params);
      if (decoded.ok) return this.#update(decoded.value);
      // The engine's own updates were validated on their way out: this one has no v1 form.
      this.#io.logger.warn?.(`Dropped a session/update a v1 client cannot read: ${decodeErrorText(decoded.error)}`);
      return;
    }
    if (method === "session/request_permission" && id !== undefined && id !== null) {
      const decoded = decoders[method].params(message.params);
      if (!decoded.ok) return this.#io.toPeer(message);
      const request = decoded.value;
      const session = this.#session(request.sessionId);
      const held = (toolCallId: string) =>
        session.knowsToolCall(toolCallId) ? session.toolCallContent(toolCallId) : undefined;
      const v1 = permissionRequestToV1(request, `permission-${++this.#permissionIds}`, held);
      // A v1 client expects the tool call a permission is about to exist already.
      if (v1.announce !== undefined) void this.#notify(request.sessionId, session.announceToolCall(v1.announce));
      // The engine records the subject's fields without sending them: the request's toolCall
      // carries them, and the client's copy of the call now holds them.
      else if (request.subject?.type === "tool_call" && "toolCall" in request.subject)
        session.toV1({ sessionUpdate: "tool_call_update", ...request.subject.toolCall });
      if (v1.shown) this.#asked.set(id, { sessionId: request.sessionId, toolCallId: v1.request.toolCall.toolCallId });
      return this.#io.toPeer({ jsonrpc: "2.0", id, method, params: v1.request });
    }
    return this.#io.toPeer(message);
  }

  /** The client answered a permission request: the call's content goes back to its own. */
  #answered(id: WireId): void {
    const asked = this.#asked.get(id);
    if (asked === undefined) return;
    this.#asked.delete(id);
    const session = this.#sessions.get(asked.sessionId);
    if (session === undefined) return;
    const { toolCallId } = asked;
    void this.#notify(asked.sessionId, {
      sessionUpdate: "tool_call_update",
      toolCallId,
      content: session.toolCallContent(toolCallId),
    });
  }

  #update({ sessionId, update }: UpdateSessionNotification): void | Promise<void> {
    if (update.sessionUpdate === "state_update") {
      if (update.state === "idle") return this.#workEnded(sessionId, update);
      return;
    }
    if (update.sessionUpdate === "config_option_update") this.#options.set(sessionId, update.configOptions);
    // The engine sends a prompt's user message when it inserts it (into new or running work).
    if (update.sessionUpdate === "user_message" && !this.#session(sessionId).replaying) {
      const next = this.#prompts.get(sessionId)?.find((p) => !p.inserted);
      if (next !== undefined) next.inserted = true;
    }
    let last: Promise<void> | undefined;
    for (const v1 of this.#session(sessionId).toV1(update)) last = this.#notify(sessionId, v1) ?? last;
    return last;
  }

  /**
   * The work's idle ends every prompt inserted into it: those already answered in v2 get their
   * v1 answer now, the others when their v2 answer goes by. Prompts still queued wait.
   */
  #workEnded(sessionId: string, idle: IdleStateUpdate): void | Promise<void> {
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

  #promptAnswer(id: WireId, idle: IdleStateUpdate): WireMessage {
    if (idle.stopReason === "error") {
      const error = idle.error;
      const out: WireMessage["error"] = {
        code: error?.code ?? ErrorCodes.InternalError,
        message: error?.message ?? "The agent's work ended with an error",
      };
      if (error?.data !== undefined) out.data = error.data;
      return { jsonrpc: "2.0", id, error: out };
    }
    const { stopReason } = idle;
    return {
      jsonrpc: "2.0",
      id,
      result: { stopReason: stopReasonToV1(stopReason) },
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
    const result = message.result ?? {};
    const answer = (value: unknown): void | Promise<void> => this.#io.toPeer({ jsonrpc: "2.0", id, result: value });
    // The engine's answers were validated on their way out; one that is not goes on as it is.
    const forward = (): void | Promise<void> => this.#io.toPeer(message);
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
      case "new": {
        const decoded = decoders["session/new"].result(result);
        if (!decoded.ok) return forward();
        const { sessionId } = decoded.value;
        return this.#setup(id, sessionId, decoded.value, { sessionId });
      }
      case "load":
      case "resume": {
        this.#session(sent.sessionId).replaying = false;
        const decoded = decoders["session/resume"].result(result);
        return decoded.ok ? this.#setup(id, sent.sessionId, decoded.value, {}) : forward();
      }
      case "set_mode": {
        const decoded = decoders["session/set_config_option"].result(result);
        this.#options.set(sent.sessionId, decoded.ok ? decoded.value.configOptions : []);
        return answer({});
      }
      case "close":
        for (const [askedId, asked] of this.#asked) if (asked.sessionId === sent.sessionId) this.#asked.delete(askedId);
        this.#sessions.delete(sent.sessionId);
        this.#options.delete(sent.sessionId);
        this.#prompts.delete(sent.sessionId);
        return answer(result);
      case "set_config_option": {
        const decoded = decoders["session/set_config_option"].result(result);
        if (!decoded.ok) return forward();
        this.#options.set(sent.sessionId, decoded.value.configOptions);
        return answer({ configOptions: configOptionsToV1(decoded.value.configOptions) });
      }
    }
  }

  /** A `session/new|load|resume` answer: options and modes in the v1 answer, commands as an update. */
  #setup(
    id: WireId,
    sessionId: string,
    v2: Omit<NewSessionResponse, "sessionId">,
    base: Record<string, unknown>,
  ): void | Promise<void> {
    const options = v2.configOptions ?? [];
    this.#options.set(sessionId, options);
    this.#session(sessionId).noteOptions(options);
    const result: Record<string, unknown> = { ...base };
    if (options.length > 0) result.configOptions = configOptionsToV1(options);
    const modes = modesOf(options);
    if (modes !== undefined) result.modes = modes;
    const sent = this.#io.toPeer({ jsonrpc: "2.0", id, result });
    const availableCommands = v2.availableCommands ?? [];
    if (availableCommands.length > 0) {
      const session = this.#session(sessionId);
      for (const update of session.toV1({ sessionUpdate: "available_commands_update", availableCommands }))
        void this.#notify(sessionId, update);
    }
    return sent;
  }
}
