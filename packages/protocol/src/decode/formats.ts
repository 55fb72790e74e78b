// String formats named by the schema (`uri`, `date-time`, `regex`), checked exactly as their
// RFCs define them. Numeric formats (int32, uint16, ...) are plain ranges the emitter inlines.

const UNRESERVED = "A-Za-z0-9\\-._~";
const SUB_DELIMS = "!$&'()*+,;=";
const PCT_ENCODED = "%[0-9A-Fa-f]{2}";
const PCHAR = `(?:[${UNRESERVED}${SUB_DELIMS}:@]|${PCT_ENCODED})`;

// RFC 3986 §3: scheme ":" hier-part ["?" query] ["#" fragment]; the authority's host is
// checked apart (IP literals need more than a regular expression to be exact).
const URI = new RegExp(
  `^[A-Za-z][A-Za-z0-9+.\\-]*:` +
    `(?://((?:[${UNRESERVED}${SUB_DELIMS}:]|${PCT_ENCODED})*@)?(\\[[^\\]/?#]*\\]|(?:[${UNRESERVED}${SUB_DELIMS}]|${PCT_ENCODED})*)(?::[0-9]*)?(?:/${PCHAR}*)*` +
    `|/(?:${PCHAR}+(?:/${PCHAR}*)*)?` +
    `|${PCHAR}+(?:/${PCHAR}*)*` +
    `|)` +
    `(?:\\?(?:${PCHAR}|[/?])*)?` +
    `(?:#(?:${PCHAR}|[/?])*)?$`,
);
const IPV_FUTURE = new RegExp(`^v[0-9A-Fa-f]+\\.[${UNRESERVED}${SUB_DELIMS}:]+$`);
const IPV4 =
  /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$/;
const H16 = /^[0-9A-Fa-f]{1,4}$/;

/** RFC 4291 §2.2 text forms (what RFC 3986 `IPv6address` allows). */
function isIpv6(text: string): boolean {
  let groups = 8;
  let body = text;
  const lastColon = body.lastIndexOf(":");
  if (lastColon !== -1 && body.includes(".", lastColon)) {
    if (!IPV4.test(body.slice(lastColon + 1))) return false;
    body = `${body.slice(0, lastColon + 1)}0`;
    groups = 7;
  }
  const halves = body.split("::");
  if (halves.length > 2) return false;
  const parse = (part: string): number => {
    if (part === "") return 0;
    const pieces = part.split(":");
    for (const piece of pieces) if (!H16.test(piece)) return -1;
    return pieces.length;
  };
  if (halves.length === 1) return parse(body) === groups;
  const head = parse(halves[0] as string);
  const tail = parse(halves[1] as string);
  return head >= 0 && tail >= 0 && head + tail < groups;
}

/** An absolute URI (RFC 3986 `URI`: a scheme is required, relative references are not URIs). */
export function isUri(text: string): boolean {
  const match = URI.exec(text);
  if (match === null) return false;
  const host = match[2];
  if (host?.startsWith("[")) {
    const literal = host.slice(1, -1);
    return IPV_FUTURE.test(literal) || isIpv6(literal);
  }
  return true;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/**
 * RFC 3339 §5.6 `date-time`: real calendar dates, hours 00-23, and a leap second (`:60`) only
 * where it can occur, at 23:59 UTC. `T` and `Z` may be lower case (RFC 3339 §5.6 note).
 */
export function isDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (match === null) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const hour = Number(match[4]);
  const minute = Number(match[5]);
  const second = Number(match[6]);
  if (month < 1 || month > 12 || day < 1) return false;
  const monthDays = month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] as number);
  if (day > monthDays || hour > 23 || minute > 59 || second > 60) return false;
  let offsetMinutes = 0;
  if (match[7] !== undefined) {
    const offsetHour = Number(match[8]);
    const offsetMinute = Number(match[9]);
    if (offsetHour > 23 || offsetMinute > 59) return false;
    offsetMinutes = (match[7] === "+" ? 1 : -1) * (offsetHour * 60 + offsetMinute);
  }
  if (second === 60) {
    const utcMinute = (((hour * 60 + minute - offsetMinutes) % 1440) + 1440) % 1440;
    return utcMinute === 23 * 60 + 59;
  }
  return true;
}

/** An ECMA-262 regular expression source (JSON Schema `regex`), in Unicode mode. */
export function isRegexSource(text: string): boolean {
  try {
    new RegExp(text, "u");
    return true;
  } catch {
    return false;
  }
}

/** String length in Unicode code points, as JSON Schema `minLength` counts it. */
export function codePointLength(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    length++;
  }
  return length;
}
