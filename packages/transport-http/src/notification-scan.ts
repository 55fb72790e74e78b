/**
 * Recognizes a JSON-RPC notification without building it. Routing a message needs only its
 * kind and `params.sessionId`, and the stream of a turn is almost all `session/update`
 * notifications: parsing each one whole (to throw the objects away) cost more than the rest of
 * the transport together. This scans the top-level object's keys, skips values it does not need
 * (strings by `indexOf`), and answers only for what it is sure of: a payload with an escape in a
 * key, `method` or `sessionId`, or anything unexpected, gets `undefined` and the caller parses it.
 */

/** A notification's method and `params.sessionId` (undefined when it has none, or not a string). */
export interface ScannedNotification {
  method: string;
  sessionId: string | undefined;
}

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/** What the scanners share while one payload is scanned (the scan is synchronous). */
let text = "";
/** The scan position; -1 once the payload proved to be something the scan does not answer for. */
let at = 0;
/** The first backslash at or after the last place looked (-1: none), so strings are checked once. */
let nextEscape = -1;

/**
 * `payload`'s method and session when it is a JSON-RPC notification (an object with a string
 * `method` and no `id`); `undefined` when it is anything else or the scan is not sure. For
 * valid JSON an answer always equals what parsing the payload would say.
 */
export function scanNotification(payload: string): ScannedNotification | undefined {
  text = payload;
  nextEscape = payload.indexOf("\\");
  at = space(0);
  let method: string | undefined;
  let sessionId: string | undefined;
  const result = members(true, (key) => {
    if (key === "id") return false;
    if (key === "method") {
      method = text.charCodeAt(at) === QUOTE ? plainString() : undefined;
      // Not a plain string: parsing decides (a non-string method is no notification anyway).
      return method !== undefined;
    }
    if (key === "params") {
      sessionId = undefined;
      if (text.charCodeAt(at) !== OPEN_BRACE) return skipValue();
      return members(false, (inner) => {
        if (inner !== "sessionId") return skipValue();
        if (text.charCodeAt(at) !== QUOTE) {
          sessionId = undefined;
          return skipValue();
        }
        sessionId = plainString();
        return sessionId !== undefined;
      });
    }
    return skipValue();
  });
  text = "";
  if (!result || space(at) !== payload.length || method === undefined) return undefined;
  return { method, sessionId };
}

/**
 * The object at `at`: calls `member` with each key, `at` on its value; `member` moves `at` past
 * the value and returns false to give up. `top`: the outermost object (the payload's own end is
 * checked by the caller). Returns false when the scan gives up.
 */
function members(top: boolean, member: (key: string) => boolean): boolean {
  if (text.charCodeAt(at) !== OPEN_BRACE) return false;
  at = space(at + 1);
  if (text.charCodeAt(at) === CLOSE_BRACE) {
    at++;
    // `{}` is no notification; an empty params object is fine.
    return !top;
  }
  for (;;) {
    const key = plainString();
    if (key === undefined) return false;
    at = space(at);
    if (text.charCodeAt(at) !== COLON) return false;
    at = space(at + 1);
    if (!member(key)) return false;
    at = space(at);
    const next = text.charCodeAt(at);
    if (next === COMMA) {
      at = space(at + 1);
      continue;
    }
    if (next !== CLOSE_BRACE) return false;
    at++;
    return true;
  }
}

/** The string at `at` when it has no escapes (`at` moves past it); undefined otherwise. */
function plainString(): string | undefined {
  if (text.charCodeAt(at) !== QUOTE) return undefined;
  const close = text.indexOf('"', at + 1);
  if (close < 0) return undefined;
  if (nextEscape !== -1 && nextEscape < at) nextEscape = text.indexOf("\\", at);
  if (nextEscape !== -1 && nextEscape < close) return undefined;
  const value = text.slice(at + 1, close);
  at = close + 1;
  return value;
}

/** Moves `at` past the string whose opening quote is at `at`; false when it is not closed. */
function skipString(): boolean {
  let close = text.indexOf('"', at + 1);
  if (nextEscape !== -1 && nextEscape < at) nextEscape = text.indexOf("\\", at);
  // No backslash before the first quote: that quote closes it.
  while (close >= 0 && nextEscape !== -1 && nextEscape < close) {
    let backslashes = 0;
    while (text.charCodeAt(close - 1 - backslashes) === BACKSLASH) backslashes++;
    // An even run of backslashes escapes itself, not the quote.
    if (backslashes % 2 === 0) break;
    close = text.indexOf('"', close + 1);
  }
  if (close < 0) return false;
  at = close + 1;
  return true;
}

/** Moves `at` past the value there; false when it is cut short. */
function skipValue(): boolean {
  const first = text.charCodeAt(at);
  if (first === QUOTE) return skipString();
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    const start = at;
    for (; at < text.length; at++) {
      const code = text.charCodeAt(at);
      if (code === COMMA || code === CLOSE_BRACE || code === CLOSE_BRACKET || code <= 32) break;
    }
    return at > start;
  }
  // Valid JSON nests properly, so a depth is enough; invalid JSON is the parser's to report.
  let depth = 0;
  for (; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) {
      if (!skipString()) return false;
      at--;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) depth++;
    else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) {
        at++;
        return true;
      }
    }
  }
  return false;
}

function space(start: number): number {
  let i = start;
  for (;;) {
    const code = text.charCodeAt(i);
    // JSON's whitespace: space, tab, LF, CR.
    if (code !== 32 && code !== 9 && code !== 10 && code !== 13) return i;
    i++;
  }
}
