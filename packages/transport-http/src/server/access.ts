/** Origin and authentication checks of the Streamable HTTP endpoint (the WebSocket server's rules). */
import type { HttpAuthenticate, HttpAuthRefused, OriginPolicy } from "./options.js";

function normalizeOrigin(origin: string): string {
  const trimmed = origin.trim();
  if (trimmed === "null") return "null";
  try {
    return new URL(trimmed).origin.toLowerCase();
  } catch {
    return trimmed.toLowerCase();
  }
}

/** A request without `Origin` is a non-browser client and passes; one with it must be allowed. */
export function createOriginCheck(policy: OriginPolicy | undefined): (origin: string | undefined) => boolean {
  if (typeof policy === "function") return (origin) => origin === undefined || policy(origin);
  const allowed = new Set((policy ?? []).map(normalizeOrigin));
  return (origin) => origin === undefined || allowed.has(normalizeOrigin(origin));
}

export type AccessOutcome = { ok: true; principal: unknown } | { ok: false; refusal: HttpAuthRefused };

/** Runs `authenticate` (if any) within `timeoutMs`; a hook that throws refuses with 500. */
export async function checkAuthentication(
  authenticate: HttpAuthenticate | undefined,
  request: Request,
  timeoutMs: number,
): Promise<AccessOutcome> {
  if (!authenticate) return { ok: true, principal: undefined };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  try {
    const result = await Promise.race([authenticate(request), timeout]);
    if (result === "timeout")
      return { ok: false, refusal: { ok: false, status: 503, message: "Authentication timed out" } };
    if (result === true) return { ok: true, principal: undefined };
    if (result === false) return { ok: false, refusal: { ok: false } };
    if (result.ok) return { ok: true, principal: result.principal };
    return { ok: false, refusal: result };
  } catch {
    return { ok: false, refusal: { ok: false, status: 500, message: "Internal server error" } };
  } finally {
    clearTimeout(timer);
  }
}

export interface HttpBearerTokenOptions {
  /** Sent as `WWW-Authenticate: Bearer realm="..."` on refusal. Default `"acp"`. */
  realm?: string;
}

/**
 * An `authenticate` hook for the Streamable HTTP handler that requires
 * `Authorization: Bearer <token>` with one of the given tokens (compared in constant time).
 */
export function httpBearerToken(
  tokens: string | readonly string[],
  options: HttpBearerTokenOptions = {},
): HttpAuthenticate {
  const expected = typeof tokens === "string" ? [tokens] : [...tokens];
  if (expected.length === 0) throw new TypeError("httpBearerToken needs at least one token");
  const digests = Promise.all(expected.map(digest));
  const realm = options.realm ?? "acp";
  return async (request) => {
    const header = request.headers.get("authorization");
    const presented = header ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
    if (presented === undefined) {
      return {
        ok: false,
        status: 401,
        message: "Missing bearer token",
        headers: { "WWW-Authenticate": `Bearer realm="${realm}"` },
      };
    }
    const candidate = await digest(presented);
    let match = false;
    // Every token is compared, so timing does not tell which one (or whether any) matched.
    for (const token of await digests) match = equalDigests(token, candidate) || match;
    if (match) return true;
    return {
      ok: false,
      status: 401,
      message: "Invalid bearer token",
      headers: { "WWW-Authenticate": `Bearer realm="${realm}", error="invalid_token"` },
    };
  };
}

async function digest(value: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value)));
}

function equalDigests(a: Uint8Array, b: Uint8Array): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < a.length && i < b.length; i++) difference |= (a[i] as number) ^ (b[i] as number);
  return difference === 0;
}
