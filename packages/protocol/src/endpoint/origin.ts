/** Which browser origins may call an ACP endpoint: a list of origins, or a predicate. */
export type OriginPolicy = readonly string[] | ((origin: string) => boolean);

/** Lower-cased `scheme://host[:port]`, the form browsers send; `null` stays `null`. */
export function normalizeOrigin(origin: string): string {
  const trimmed = origin.trim();
  if (trimmed === "null") return "null";
  try {
    return new URL(trimmed).origin.toLowerCase();
  } catch {
    return trimmed.toLowerCase();
  }
}

/**
 * Builds the Origin check of an endpoint (WebSocket upgrades and Streamable HTTP requests alike).
 * A request without an `Origin` header comes from a non-browser client and passes (browsers send
 * one on WebSocket upgrades and cross-origin fetches, so a web page cannot hide it); a request
 * with one passes only if the policy allows it. No policy allows no browser origin.
 */
export function createOriginCheck(policy: OriginPolicy | undefined): (origin: string | undefined) => boolean {
  if (typeof policy === "function") return (origin) => origin === undefined || policy(origin);
  const allowed = new Set((policy ?? []).map(normalizeOrigin));
  return (origin) => origin === undefined || allowed.has(normalizeOrigin(origin));
}
