import { CookieJar } from "tough-cookie";

/**
 * Cookies for ACP over WebSocket in Node. The RFD requires clients to accept `Set-Cookie`
 * (including on the upgrade response) and send it back on later requests, which load
 * balancers use for sticky routing. Pass one jar to every `connectWebSocket` call of a
 * logical connection (e.g. each reconnect) so the affinity cookie survives.
 * Parsing, domain/path matching and expiry are tough-cookie's.
 */
export class AcpCookieJar {
  readonly jar: CookieJar;

  constructor(jar: CookieJar = new CookieJar()) {
    this.jar = jar;
  }

  /** The `Cookie` header value for a request to `url` ("" when none apply). */
  cookieHeader(url: string | URL): Promise<string> {
    return this.jar.getCookieString(httpUrlFor(url));
  }

  /** Stores the `Set-Cookie` headers of a response from `url`; malformed ones are skipped. */
  async store(url: string | URL, setCookie: string | readonly string[] | undefined): Promise<void> {
    if (setCookie === undefined) return;
    const target = httpUrlFor(url);
    for (const header of typeof setCookie === "string" ? [setCookie] : setCookie) {
      await this.jar.setCookie(header, target, { ignoreError: true });
    }
  }

  /** Forgets every cookie. */
  clear(): Promise<void> {
    return this.jar.removeAllCookies();
  }
}

/** Cookie rules are defined for http(s) URLs: `ws:` maps to `http:`, `wss:` to `https:`. */
function httpUrlFor(url: string | URL): string {
  const parsed = new URL(url.toString());
  if (parsed.protocol === "ws:") parsed.protocol = "http:";
  else if (parsed.protocol === "wss:") parsed.protocol = "https:";
  return parsed.toString();
}
