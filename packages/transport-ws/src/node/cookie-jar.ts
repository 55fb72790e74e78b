import type { CookieJar } from "tough-cookie";

/**
 * Cookies for ACP over WebSocket in Node. The RFD requires clients to accept `Set-Cookie`
 * (including on the upgrade response) and send it back on later requests, which load
 * balancers use for sticky routing. Pass one jar to every `connectWebSocket` call of a
 * logical connection (e.g. each reconnect) so the affinity cookie survives.
 * Parsing, domain/path matching and expiry are tough-cookie's; it is loaded on the jar's first
 * use, so code that never touches cookies does not pay for it.
 *
 * @example
 * ```ts
 * import { AcpCookieJar, connectWebSocket } from "@acp-kit/transport-ws/node";
 *
 * const cookies = new AcpCookieJar();
 * const first = await connectWebSocket("wss://agents.example.com/acp", { cookies });
 * // ...later, after a drop: the affinity cookie from the first upgrade goes along.
 * const second = await connectWebSocket("wss://agents.example.com/acp", { cookies });
 * ```
 */
export class AcpCookieJar {
  #jar: Promise<CookieJar> | undefined;

  /** `jar`: a tough-cookie `CookieJar` to use (e.g. one with a persistent store); default a fresh one. */
  constructor(jar?: CookieJar) {
    if (jar) this.#jar = Promise.resolve(jar);
  }

  /** The tough-cookie jar behind this one (created on first use). */
  toughCookieJar(): Promise<CookieJar> {
    this.#jar ??= import("tough-cookie").then(({ CookieJar }) => new CookieJar());
    return this.#jar;
  }

  /** The `Cookie` header value for a request to `url` ("" when none apply). */
  async cookieHeader(url: string | URL): Promise<string> {
    return (await this.toughCookieJar()).getCookieString(httpUrlFor(url));
  }

  /** Stores the `Set-Cookie` headers of a response from `url`; malformed ones are skipped. */
  async store(url: string | URL, setCookie: string | readonly string[] | undefined): Promise<void> {
    if (setCookie === undefined) return;
    const jar = await this.toughCookieJar();
    const target = httpUrlFor(url);
    for (const header of typeof setCookie === "string" ? [setCookie] : setCookie) {
      await jar.setCookie(header, target, { ignoreError: true });
    }
  }

  /** Forgets every cookie. */
  async clear(): Promise<void> {
    await (await this.toughCookieJar()).removeAllCookies();
  }
}

/** Cookie rules are defined for http(s) URLs: `ws:` maps to `http:`, `wss:` to `https:`. */
function httpUrlFor(url: string | URL): string {
  const parsed = new URL(url.toString());
  if (parsed.protocol === "ws:") parsed.protocol = "http:";
  else if (parsed.protocol === "wss:") parsed.protocol = "https:";
  return parsed.toString();
}
