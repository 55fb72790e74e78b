/**
 * The sessions live on one agent connection and the session methods over them: `session/new`,
 * `session/list`, `session/resume`, `session/close`, `session/delete` and
 * `session/set_config_option`, with the store's claim and release around each opening. The
 * connection has already checked what the agent advertises (the protocol's capability table)
 * and the ordering and auth gates before any of these runs.
 */
import { sessionNotFoundError } from "@acp-kit/protocol";
import { RequestError } from "@acp-kit/protocol/jsonrpc";
import type {
  CloseSessionResponse,
  ListSessionsRequest,
  ListSessionsResponse,
  NewSessionRequest,
  NewSessionResponse,
  ResumeSessionRequest,
  ResumeSessionResponse,
  SetSessionConfigOptionRequest,
  SetSessionConfigOptionResponse,
} from "@acp-kit/protocol/types";
import type { ResolvedAgent } from "./agent-connection.js";
import type { ConfigChange } from "./agent-definition.js";
import { withConfigValue } from "./config-options.js";
import { copyRecordValue } from "./record-copy.js";
import { SessionRuntime, type SessionServices } from "./session-runtime.js";
import { InvalidCursorError, SessionBusyError, type SessionRecord } from "./session-store.js";

/** The change a decoded `session/set_config_option` asks for (`withConfigValue` refused any other type). */
function configChange(params: SetSessionConfigOptionRequest): ConfigChange {
  switch (params.type) {
    case "id":
    case "boolean":
      return { configId: params.configId, value: params.value };
    default:
      throw RequestError.invalidParams(`Unsupported config value type ${JSON.stringify(params.type)}`, {
        path: "/type",
      });
  }
}

export class ConnectionSessions {
  readonly #agent: ResolvedAgent;
  readonly #services: () => SessionServices;
  readonly #live = new Map<string, SessionRuntime>();

  /** `services` is read when a session opens (the client is known by then). */
  constructor(agent: ResolvedAgent, services: () => SessionServices) {
    this.#agent = agent;
    this.#services = services;
  }

  get live(): ReadonlyMap<string, SessionRuntime> {
    return this.#live;
  }

  /** The live session `sessionId`, or -32002. */
  get(sessionId: string): SessionRuntime {
    const session = this.#live.get(sessionId);
    if (session === undefined) throw sessionNotFoundError(sessionId);
    return session;
  }

  /**
   * The connection was lost: every live session is disposed (see `SessionRuntime.dispose`) and
   * released once its end is recorded. Resolves once their turns ended.
   */
  disposeAll(): Promise<void> {
    const registry = this.#agent.runsEndingOffline;
    const ending: Promise<void>[] = [];
    for (const [sessionId, session] of this.#live) {
      const ended = session.dispose();
      ending.push(ended);
      registry.set(sessionId, ended);
      this.#agent.liveSessions.removed();
      void ended.then(() => {
        if (registry.get(sessionId) === ended) registry.delete(sessionId);
        // Its end is recorded: from now on the store may forget it (retention bounds) or let another
        // process claim it.
        this.#release(sessionId);
      });
    }
    this.#live.clear();
    return Promise.all(ending).then(() => undefined);
  }

  async newSession(params: NewSessionRequest): Promise<NewSessionResponse> {
    this.#agent.liveSessions.admit(this.#live.size);
    const def = this.#agent.definition;
    const record: SessionRecord = {
      sessionId: this.#agent.ids("session"),
      cwd: params.cwd,
      additionalDirectories: [...(params.additionalDirectories ?? [])],
      configOptions: copyRecordValue(def.configOptions ?? []),
      availableCommands: copyRecordValue(def.availableCommands ?? []),
      updatedAt: new Date().toISOString(),
      data: {},
    };
    const session = new SessionRuntime(record, params.mcpServers ?? [], this.#services());
    const setup = (await def.newSession?.(session, params)) ?? {};
    if (setup.configOptions !== undefined) session.applyConfigOptionsSilently(setup.configOptions);
    if (setup.availableCommands !== undefined) session.applyAvailableCommandsSilently(setup.availableCommands);
    record.configOptions = [...session.configOptions];
    record.availableCommands = [...session.availableCommands];
    if (setup.title !== undefined) record.title = setup.title;
    if (setup.data !== undefined) Object.assign(session.data, setup.data);
    record.data = session.data;
    // Checked again and taken at once: other session/new calls may have finished meanwhile.
    this.#agent.liveSessions.admit(this.#live.size);
    this.#addLive(record.sessionId, session);
    try {
      await this.#agent.store.create(record);
      await this.#claim(record.sessionId);
    } catch (error) {
      this.#removeLive(record.sessionId);
      throw error;
    }
    const result: NewSessionResponse = { sessionId: record.sessionId };
    if (record.configOptions.length > 0) result.configOptions = record.configOptions;
    if (record.availableCommands.length > 0) result.availableCommands = record.availableCommands;
    return result;
  }

  async listSessions(params: ListSessionsRequest): Promise<ListSessionsResponse> {
    try {
      const query: { cwd?: string; cursor?: string; limit: number } = { limit: this.#agent.listPageSize };
      if (params.cwd != null) query.cwd = params.cwd;
      if (params.cursor != null) query.cursor = params.cursor;
      const page = await this.#agent.store.list(query);
      return page.nextCursor === undefined
        ? { sessions: page.sessions }
        : { sessions: page.sessions, nextCursor: page.nextCursor };
    } catch (error) {
      if (error instanceof InvalidCursorError) throw RequestError.invalidParams(error.message, { path: "/cursor" });
      throw error;
    }
  }

  async resumeSession(params: ResumeSessionRequest): Promise<ResumeSessionResponse> {
    // Everything that can be refused is checked before anything is sent.
    const replay = params.replayFrom ?? null;
    if (replay !== null && replay.type !== "start") {
      throw RequestError.invalidParams(`Unsupported replay cursor ${JSON.stringify(replay.type)}`, {
        path: "/replayFrom",
      });
    }
    // A turn cut off with its previous connection records its end first (bounded by the grace period).
    await this.#agent.runsEndingOffline.get(params.sessionId);
    const record = await this.#agent.store.get(params.sessionId);
    if (record === undefined) throw sessionNotFoundError(params.sessionId);
    if (params.cwd !== record.cwd) {
      throw RequestError.invalidParams(`Session ${params.sessionId} belongs to ${record.cwd}, not ${params.cwd}`, {
        path: "/cwd",
      });
    }
    const additionalDirectories = [...(params.additionalDirectories ?? [])];
    let session = this.#live.get(params.sessionId);
    // Each opening of a session on a connection claims it once; closing or losing it releases.
    const claimed = session === undefined;
    if (claimed) {
      this.#agent.liveSessions.admit(this.#live.size);
      await this.#claim(params.sessionId);
    }
    try {
      if (session === undefined) {
        session = new SessionRuntime({ ...record, additionalDirectories }, params.mcpServers ?? [], this.#services());
      } else {
        session.additionalDirectories = additionalDirectories;
        session.mcpServers = [...(params.mcpServers ?? [])];
      }
      await this.#agent.definition.resumeSession?.(session, params);
      await this.#agent.store.update(params.sessionId, { additionalDirectories });
      if (!this.#live.has(params.sessionId)) {
        // Checked again: other openings may have finished while this one waited.
        this.#agent.liveSessions.admit(this.#live.size);
        this.#addLive(params.sessionId, session);
      }
      // Ids already in the history are never handed out again (custom generators included).
      const history = await this.#agent.store.history(params.sessionId);
      session.seedIds(history);
      if (replay !== null) {
        for (const update of history) session.replay(update);
      }
    } catch (error) {
      if (claimed) {
        if (this.#live.get(params.sessionId) === session) this.#removeLive(params.sessionId);
        this.#release(params.sessionId);
      }
      throw error;
    }
    session.replay(session.snapshot());
    const result: ResumeSessionResponse = {};
    if (session.configOptions.length > 0) result.configOptions = [...session.configOptions];
    if (session.availableCommands.length > 0) result.availableCommands = [...session.availableCommands];
    return result;
  }

  async closeSession(sessionId: string): Promise<CloseSessionResponse> {
    const session = this.#live.get(sessionId);
    if (session === undefined) return {};
    // The hook runs before the session is marked closed, so it can still finalize background work.
    const hook = this.#agent.definition.closeSession;
    await session.close(hook === undefined ? undefined : (s) => hook.call(this.#agent.definition, s));
    this.#removeLive(sessionId);
    this.#release(sessionId);
    return {};
  }

  async deleteSession(sessionId: string): Promise<CloseSessionResponse> {
    if (this.#live.has(sessionId)) await this.closeSession(sessionId);
    await this.#agent.store.delete(sessionId);
    await this.#agent.definition.deleteSession?.(sessionId);
    return {};
  }

  async setConfigOption(params: SetSessionConfigOptionRequest): Promise<SetSessionConfigOptionResponse> {
    const session = this.get(params.sessionId);
    const next = withConfigValue(session.configOptions, params.configId, params.type, params.value);
    const replaced = await this.#agent.definition.setConfigOption?.(session, configChange(params), next);
    const options = replaced ?? next;
    session.applyConfigOptions(options);
    return { configOptions: [...options] };
  }

  /** The session went live on this connection (after `admit`). */
  #addLive(sessionId: string, session: SessionRuntime): void {
    if (!this.#live.has(sessionId)) this.#agent.liveSessions.added();
    this.#live.set(sessionId, session);
  }

  #removeLive(sessionId: string): void {
    if (this.#live.delete(sessionId)) this.#agent.liveSessions.removed();
  }

  /** `SessionStore.claim`, with another process's hold answered as a clear request error. */
  async #claim(sessionId: string): Promise<void> {
    try {
      await this.#agent.store.claim?.(sessionId);
    } catch (error) {
      if (error instanceof SessionBusyError)
        throw RequestError.internalError(error.message, { sessionId, reason: "session_busy" });
      throw error;
    }
  }

  /** `SessionStore.release`; a failure is logged (the session is closed here either way). */
  #release(sessionId: string): void {
    try {
      const done = this.#agent.store.release?.(sessionId);
      if (done !== undefined)
        done.catch((error: unknown) =>
          this.#agent.logger.error?.("Session store release failed", { sessionId, error }),
        );
    } catch (error) {
      this.#agent.logger.error?.("Session store release failed", { sessionId, error });
    }
  }
}
