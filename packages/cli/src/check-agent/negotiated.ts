/**
 * The checker's client negotiates as a real one: it asks for version 2 (with the v1 spelling of
 * its info and capabilities alongside, which a v1 agent reads and a v2 agent ignores) and accepts
 * an answer of 1. `Negotiated` is what the agent advertised, read the way its version spells it.
 */
import type { ScriptedClient } from "@acp-kit/testkit";
import type { ProtocolVersion } from "../report.js";

const CLIENT_INFO = { name: "acp-kit-check", version: "1.0.0" };

/** The `initialize` params: v2 fields and their v1 spelling (no fs, no terminal: the checker serves neither). */
export const CHECK_INITIALIZE = {
  protocolVersion: 2,
  info: CLIENT_INFO,
  capabilities: {},
  clientInfo: CLIENT_INFO,
  clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
};

export interface Negotiated {
  version: ProtocolVersion;
  /** The `initialize` result as sent. */
  result: Record<string, unknown>;
  /** `info` (v2) or `agentInfo` (v1). */
  info: unknown;
  /** `capabilities` (v2) or `agentCapabilities` (v1), as sent. */
  capabilities: Record<string, unknown>;
  /** The session methods the agent advertised, whatever the version calls them. */
  session: { list: boolean; resume: boolean; close: boolean; delete: boolean; load: boolean };
  /** The session capability object of v2 (`capabilities.session`), or v1's `sessionCapabilities`. */
  sessionCapabilities: Record<string, unknown> | undefined;
  promptImage: boolean;
  authMethods: unknown[];
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
/** v1 marks a session capability by an object (`{}`), absent or null when not supported. */
const present = (value: unknown) => value !== undefined && value !== null && value !== false;

/** Reads an `initialize` result for the version it claims; `undefined` for a version the checker cannot speak. */
export function readInitialize(result: Record<string, unknown>): Negotiated | undefined {
  const authMethods = Array.isArray(result.authMethods) ? result.authMethods : [];
  if (result.protocolVersion === 2) {
    const capabilities = record(result.capabilities) ?? {};
    const session = record(capabilities.session);
    const prompt = record(session?.prompt);
    return {
      version: 2,
      result,
      info: result.info,
      capabilities,
      // In v2 the session capability is a baseline: list, resume and close come with it.
      session: {
        list: session !== undefined,
        resume: session !== undefined,
        close: session !== undefined,
        delete: present(session?.delete),
        load: false,
      },
      sessionCapabilities: session,
      promptImage: present(prompt?.image),
      authMethods,
    };
  }
  if (result.protocolVersion === 1) {
    const capabilities = record(result.agentCapabilities) ?? {};
    const session = record(capabilities.sessionCapabilities);
    return {
      version: 1,
      result,
      info: result.agentInfo,
      capabilities,
      session: {
        list: present(session?.list),
        resume: present(session?.resume),
        close: present(session?.close),
        delete: present(session?.delete),
        load: capabilities.loadSession === true,
      },
      sessionCapabilities: session,
      promptImage: record(capabilities.promptCapabilities)?.image === true,
      authMethods,
    };
  }
  return undefined;
}

/** The `session/new` params of the version: v1 requires `mcpServers`. */
export function newSessionParams(version: ProtocolVersion, cwd: string): Record<string, unknown> {
  return version === 1 ? { cwd, mcpServers: [] } : { cwd };
}

/** `session/new` for the negotiated version; resolves the session id, rejects with the agent's error. */
export async function newSession(client: ScriptedClient, negotiated: Negotiated, cwd: string): Promise<string> {
  const result = record(await client.connection.request("session/new", newSessionParams(negotiated.version, cwd)));
  if (typeof result?.sessionId !== "string")
    throw new Error(`session/new answered without a sessionId: ${JSON.stringify(result)}`);
  return result.sessionId;
}

/** The advertised auth methods as `id (name)`, in either version's spelling. */
export function describeAuthMethods(methods: unknown[]): string {
  if (methods.length === 0) return "none advertised";
  return methods
    .map((m) => {
      const method = record(m) ?? {};
      const id = method.methodId ?? method.id;
      return typeof method.name === "string" && method.name !== id ? `${String(id)} (${method.name})` : String(id);
    })
    .join(", ");
}

/** Whether a refused request says it needs authentication: -32000, or "auth" in its message or data. */
export function isAuthRefusal(error: unknown): boolean {
  const e = record(error);
  if (e === undefined || typeof e.code !== "number") return false;
  if (e.code === -32000) return true;
  const text = `${String(e.message ?? "")} ${JSON.stringify(e.data ?? null)}`;
  return /auth|log ?in\b|api[ _-]?key|credential/i.test(text);
}
