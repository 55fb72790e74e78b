import type { IncomingMessage } from "node:http";
import { createBearerTokenCheck, readBearerToken } from "@acp-kit/protocol/endpoint";

/** Accept the upgrade; `principal` (who the caller is) is handed to `onConnection`. */
export interface AuthAccepted {
  ok: true;
  principal?: unknown;
}

/** Refuse the upgrade with an HTTP status (default 401) before any WebSocket exists. */
export interface AuthRefused {
  ok: false;
  status?: number;
  message?: string;
  headers?: Record<string, string>;
}

/** `true` accepts, `false` refuses with 401. */
export type AuthenticateResult = boolean | AuthAccepted | AuthRefused;

/** Runs before the upgrade; throwing refuses with 500. */
export type Authenticate = (request: IncomingMessage) => AuthenticateResult | Promise<AuthenticateResult>;

export interface BearerTokenOptions {
  /**
   * Also accept the token from this query parameter (e.g. `"access_token"`), for browsers,
   * which cannot set an `Authorization` header on a WebSocket. Query strings tend to end up
   * in access logs; prefer short-lived tokens when enabling this.
   */
  queryParameter?: string;
  /** Sent as `WWW-Authenticate: Bearer realm="..."` on refusal. Default `"acp"`. */
  realm?: string;
}

/**
 * An `authenticate` hook that requires `Authorization: Bearer <token>` with one of the given
 * tokens (compared in constant time). Missing or wrong token: 401 before the upgrade.
 */
export function bearerToken(tokens: string | readonly string[], options: BearerTokenOptions = {}): Authenticate {
  const check = createBearerTokenCheck(tokens, { name: "bearerToken", realm: options.realm ?? "acp" });
  return (request) =>
    check(readBearerToken(request.headers.authorization) ?? readQuery(request, options.queryParameter));
}

function readQuery(request: IncomingMessage, name: string | undefined): string | undefined {
  if (!name) return undefined;
  const value = new URL(request.url ?? "/", "http://localhost").searchParams.get(name);
  return value ?? undefined;
}

/** `authenticate(request)`, or `"timeout"` when it has not settled within `timeoutMs`. */
export async function authenticateWithin(
  authenticate: Authenticate,
  request: IncomingMessage,
  timeoutMs: number,
): Promise<AuthenticateResult | "timeout"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  try {
    return await Promise.race([authenticate(request), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
