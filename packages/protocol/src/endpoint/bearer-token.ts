/** A refused bearer token: 401 with the `WWW-Authenticate` challenge (RFC 6750). */
export interface BearerTokenRefusal {
  ok: false;
  status: 401;
  message: string;
  headers: Record<string, string>;
}

export interface BearerTokenCheckOptions {
  /** Sent as `WWW-Authenticate: Bearer realm="..."` on refusal. Default `"acp"`. */
  realm?: string;
  /** Who builds the check, for the error on an empty token list. Default `"createBearerTokenCheck"`. */
  name?: string;
}

/** The token of an `Authorization: Bearer <token>` header, if that is what it holds. */
export function readBearerToken(authorization: string | null | undefined): string | undefined {
  if (!authorization) return undefined;
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
}

/**
 * Builds the check of a presented bearer token against one of `tokens`. Tokens are compared by
 * their SHA-256 digests (Web Crypto, in any runtime), in constant time and against every token,
 * so timing tells neither which token matched nor how long the tokens are.
 */
export function createBearerTokenCheck(
  tokens: string | readonly string[],
  options: BearerTokenCheckOptions = {},
): (presented: string | undefined) => Promise<true | BearerTokenRefusal> {
  const expected = typeof tokens === "string" ? [tokens] : [...tokens];
  if (expected.length === 0)
    throw new TypeError(`${options.name ?? "createBearerTokenCheck"} needs at least one token`);
  const digests = Promise.all(expected.map(digest));
  // Not yet awaited by anyone: a failure surfaces on the first check, not as an unhandled rejection.
  digests.catch(() => {});
  const realm = options.realm ?? "acp";
  return async (presented) => {
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

/** Equal length (32 bytes, both SHA-256) and every byte compared, whatever differs first. */
function equalDigests(a: Uint8Array, b: Uint8Array): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < a.length && i < b.length; i++) difference |= (a[i] as number) ^ (b[i] as number);
  return difference === 0;
}
