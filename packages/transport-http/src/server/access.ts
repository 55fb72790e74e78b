/** Origin and authentication checks of the Streamable HTTP endpoint (the WebSocket server's rules). */
import { createBearerTokenCheck, readBearerToken } from "@acp-kit/protocol/endpoint";
import type { HttpAuthenticate, HttpAuthRefused } from "./options.js";

// The Origin check is the one every endpoint uses (the WebSocket server's too).
export { createOriginCheck } from "@acp-kit/protocol/endpoint";

export type AccessOutcome = { ok: true; principal: unknown } | { ok: false; refusal: HttpAuthRefused };

/**
 * Runs `authenticate` (if any) within `timeoutMs`; a hook that throws refuses with 500. The
 * request is built only when there is a hook to take it (the Node front end has none otherwise).
 */
export async function checkAuthentication(
  authenticate: HttpAuthenticate | undefined,
  request: () => Request,
  timeoutMs: number,
): Promise<AccessOutcome> {
  if (!authenticate) return { ok: true, principal: undefined };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  try {
    const result = await Promise.race([authenticate(request()), timeout]);
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
  const check = createBearerTokenCheck(tokens, { name: "httpBearerToken", realm: options.realm ?? "acp" });
  return (request) => check(readBearerToken(request.headers.get("authorization")));
}
