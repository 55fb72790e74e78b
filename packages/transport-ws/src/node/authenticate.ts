import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

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
  const expected = (typeof tokens === "string" ? [tokens] : [...tokens]).map(digest);
  if (expected.length === 0) throw new TypeError("bearerToken needs at least one token");
  const realm = options.realm ?? "acp";
  return (request) => {
    const presented = readBearer(request) ?? readQuery(request, options.queryParameter);
    if (presented === undefined) {
      return {
        ok: false,
        status: 401,
        message: "Missing bearer token",
        headers: { "WWW-Authenticate": `Bearer realm="${realm}"` },
      };
    }
    const candidate = digest(presented);
    // Check every token so timing does not reveal which one (or whether any) matched.
    let match = false;
    for (const token of expected) match = timingSafeEqual(token, candidate) || match;
    if (!match) {
      return {
        ok: false,
        status: 401,
        message: "Invalid bearer token",
        headers: { "WWW-Authenticate": `Bearer realm="${realm}", error="invalid_token"` },
      };
    }
    return true;
  };
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

function readBearer(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
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
