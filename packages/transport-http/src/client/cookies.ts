/**
 * Cookies of one ACP connection when the runtime does not keep them (Node's `fetch`). The RFD
 * requires a client to return the cookies the server set for as long as the connection lives
 * (load balancers route on them). Every request of a connection goes to one endpoint URL, so
 * the store keeps name → value and honours removal (`Max-Age<=0`, a past `Expires`); domain
 * and path matching have nothing to choose between. In browsers `Set-Cookie` is hidden from
 * scripts and `credentials` does the work, so this store stays empty there.
 */
export class ConnectionCookies {
  private readonly cookies = new Map<string, { value: string; expires: number | undefined }>();

  /** The `Cookie` header value, or undefined when there is none. */
  header(now = Date.now()): string | undefined {
    const pairs: string[] = [];
    for (const [name, cookie] of this.cookies) {
      if (cookie.expires !== undefined && cookie.expires <= now) this.cookies.delete(name);
      else pairs.push(`${name}=${cookie.value}`);
    }
    return pairs.length > 0 ? pairs.join("; ") : undefined;
  }

  /** Takes the `Set-Cookie` headers of a response. */
  store(response: Response, now = Date.now()): void {
    const headers = response.headers as Headers & { getSetCookie?: () => string[] };
    for (const line of headers.getSetCookie?.() ?? []) this.storeOne(line, now);
  }

  clear(): void {
    this.cookies.clear();
  }

  private storeOne(line: string, now: number): void {
    const [pair = "", ...attributes] = line.split(";");
    const equals = pair.indexOf("=");
    if (equals <= 0) return;
    const name = pair.slice(0, equals).trim();
    const value = pair.slice(equals + 1).trim();
    let expires: number | undefined;
    for (const attribute of attributes) {
      const [key = "", raw = ""] = attribute.split("=", 2).map((part) => part.trim());
      if (key.toLowerCase() === "max-age" && /^-?\d+$/.test(raw)) expires = now + Number(raw) * 1000;
      else if (key.toLowerCase() === "expires" && expires === undefined) {
        const at = Date.parse(raw);
        if (!Number.isNaN(at)) expires = at;
      }
    }
    if (expires !== undefined && expires <= now) this.cookies.delete(name);
    else this.cookies.set(name, { value, expires });
  }
}
