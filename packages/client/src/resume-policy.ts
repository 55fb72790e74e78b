/**
 * What to do with a session id remembered from an earlier run (a restart, a reconnect):
 * - `off`: always start a new session;
 * - `auto`: resume it (with replay by default); when the agent does not know the session or the
 *   cwd differs from the session's, start a new session and say why (`fallback`); any other
 *   failure (a busy session, a lost connection, a capability the agent lacks) is thrown;
 * - `required`: resume it or throw `ResumeRefusedError`.
 * A replay is applied to the store in one change (see `resumeSession`), never as live output.
 */
import { LocalError, RequestError } from "@acp-kit/protocol/jsonrpc";
import type { AcpClient, ResumeSessionOptions } from "./client.js";
import type { ClientSession } from "./session.js";

export type ResumePolicy = "off" | "auto" | "required";

/** Why a resume was not possible. */
export type ResumeFailure = "unknown_session" | "cwd_mismatch";

export interface OpenSessionOptions extends Omit<ResumeSessionOptions, "replay" | "meta"> {
  /** The session to resume. Without it a new session is started (except with `required`). */
  sessionId?: string;
  /** Default `auto`. */
  resume?: ResumePolicy;
  /** Replay the history on resume. Default true. */
  replay?: ResumeSessionOptions["replay"];
}

export interface OpenedSession {
  session: ClientSession;
  /** True when `sessionId` was resumed; false for a new session. */
  resumed: boolean;
  /** With `auto`: why the session could not be resumed and a new one was started instead. */
  fallback?: { reason: ResumeFailure; message: string };
}

/** `required` could not resume the session; nothing was started. */
export class ResumeRefusedError extends LocalError {
  override readonly name = "ResumeRefusedError";
  readonly sessionId: string;
  readonly reason: ResumeFailure;
  constructor(sessionId: string, reason: ResumeFailure, detail: string, cause: unknown) {
    super(`Cannot resume session ${sessionId}: ${detail}`, { cause });
    this.sessionId = sessionId;
    this.reason = reason;
  }
}

/** The failures `auto` recovers from; `undefined` for every other error. */
export function classifyResumeFailure(error: unknown): { reason: ResumeFailure; detail: string } | undefined {
  if (!(error instanceof RequestError)) return undefined;
  if (error.code === -32002) return { reason: "unknown_session", detail: "the agent does not know it" };
  const { data } = error;
  const path = typeof data === "object" && data !== null && "path" in data ? data.path : undefined;
  if (error.code === -32602 && path === "/cwd") return { reason: "cwd_mismatch", detail: error.message };
  return undefined;
}

export async function openSession(client: AcpClient, options: OpenSessionOptions): Promise<OpenedSession> {
  const { sessionId, resume = "auto", replay = true, cwd, additionalDirectories, mcpServers, store } = options;
  const fresh = async (): Promise<ClientSession> => {
    const params: Parameters<AcpClient["newSession"]>[0] = { cwd };
    if (additionalDirectories !== undefined) params.additionalDirectories = additionalDirectories;
    if (mcpServers !== undefined) params.mcpServers = mcpServers;
    return await client.newSession(params, store === undefined ? {} : { store });
  };
  if (sessionId === undefined) {
    if (resume === "required") throw new TypeError('openSession: resume "required" needs a sessionId');
    return { session: await fresh(), resumed: false };
  }
  if (resume === "off") return { session: await fresh(), resumed: false };
  try {
    const resumeOptions: ResumeSessionOptions = { cwd, replay };
    if (additionalDirectories !== undefined) resumeOptions.additionalDirectories = additionalDirectories;
    if (mcpServers !== undefined) resumeOptions.mcpServers = mcpServers;
    if (store !== undefined) resumeOptions.store = store;
    return { session: await client.resumeSession(sessionId, resumeOptions), resumed: true };
  } catch (error) {
    const failure = classifyResumeFailure(error);
    if (failure === undefined) throw error;
    if (resume === "required") throw new ResumeRefusedError(sessionId, failure.reason, failure.detail, error);
    const message = `Session ${sessionId} could not be resumed (${failure.detail}); started a new session`;
    return { session: await fresh(), resumed: false, fallback: { reason: failure.reason, message } };
  }
}
