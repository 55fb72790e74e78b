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

/**
 * `payload`'s method and session when it is a JSON-RPC notification (an object with a string
 * `method` and no `id`); `undefined` when it is anything else or the scan is not sure. For
 * valid JSON an answer always equals what parsing the payload would say.
 */
export function scanNotification(payload: string): ScannedNotification | undefined {
  let i = skipSpace(payload, 0);
  if (payload.charCodeAt(i) !== OPEN_BRACE) return undefined;
  i = skipSpace(payload, i + 1);
  let method: string | undefined;
  let sessionId: string | undefined;
  if (payload.charCodeAt(i) === CLOSE_BRACE) return undefined;
  for (;;) {
    const key = plainString(payload, i);
    if (key === undefined) return undefined;
    i = skipSpace(payload, key.end);
    if (payload.charCodeAt(i) !== COLON) return undefined;
    i = skipSpace(payload, i + 1);
    if (key.text === "id") return undefined;
    if (key.text === "method") {
      const value = payload.charCodeAt(i) === QUOTE ? plainString(payload, i) : undefined;
      // Not a plain string: parsing decides (a non-string method is no notification anyway).
      if (value === undefined) return undefined;
      method = value.text;
      i = value.end;
    } else if (key.text === "params" && payload.charCodeAt(i) === OPEN_BRACE) {
      const params = scanParams(payload, i);
      if (params === undefined) return undefined;
      sessionId = params.sessionId;
      i = params.end;
    } else {
      if (key.text === "params") sessionId = undefined;
      i = skipValue(payload, i);
      if (i < 0) return undefined;
    }
    i = skipSpace(payload, i);
    const next = payload.charCodeAt(i);
    if (next === COMMA) {
      i = skipSpace(payload, i + 1);
      continue;
    }
    if (next !== CLOSE_BRACE) return undefined;
    break;
  }
  if (skipSpace(payload, i + 1) !== payload.length || method === undefined) return undefined;
  return { method, sessionId };
}

/** The `params` object at `start`: its string `sessionId` (the last one, as parsing keeps) and its end. */
function scanParams(payload: string, start: number): { sessionId: string | undefined; end: number } | undefined {
  let i = skipSpace(payload, start + 1);
  let sessionId: string | undefined;
  if (payload.charCodeAt(i) === CLOSE_BRACE) return { sessionId, end: i + 1 };
  for (;;) {
    const key = plainString(payload, i);
    if (key === undefined) return undefined;
    i = skipSpace(payload, key.end);
    if (payload.charCodeAt(i) !== COLON) return undefined;
    i = skipSpace(payload, i + 1);
    if (key.text === "sessionId") {
      if (payload.charCodeAt(i) === QUOTE) {
        const value = plainString(payload, i);
        if (value === undefined) return undefined;
        sessionId = value.text;
        i = value.end;
      } else {
        sessionId = undefined;
        i = skipValue(payload, i);
      }
    } else {
      i = skipValue(payload, i);
    }
    if (i < 0) return undefined;
    i = skipSpace(payload, i);
    const next = payload.charCodeAt(i);
    if (next === COMMA) {
      i = skipSpace(payload, i + 1);
      continue;
    }
    if (next !== CLOSE_BRACE) return undefined;
    return { sessionId, end: i + 1 };
  }
}

/** A string at `start` without escapes: its text and the index after its closing quote. */
function plainString(payload: string, start: number): { text: string; end: number } | undefined {
  if (payload.charCodeAt(start) !== QUOTE) return undefined;
  const close = payload.indexOf('"', start + 1);
  if (close < 0) return undefined;
  const text = payload.slice(start + 1, close);
  if (text.includes("\\")) return undefined;
  return { text, end: close + 1 };
}

/** The index after the string whose opening quote is at `start`, or -1. */
function stringEnd(payload: string, start: number): number {
  let close = payload.indexOf('"', start + 1);
  for (;;) {
    if (close < 0) return -1;
    let backslashes = 0;
    while (payload.charCodeAt(close - 1 - backslashes) === BACKSLASH) backslashes++;
    // An even run of backslashes escapes itself, not the quote.
    if (backslashes % 2 === 0) return close + 1;
    close = payload.indexOf('"', close + 1);
  }
}

/** The index after the value at `start`, or -1 when it is cut short or its brackets do not match. */
function skipValue(payload: string, start: number): number {
  const first = payload.charCodeAt(start);
  if (first === QUOTE) return stringEnd(payload, start);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    let i = start;
    for (; i < payload.length; i++) {
      const code = payload.charCodeAt(i);
      if (code === COMMA || code === CLOSE_BRACE || code === CLOSE_BRACKET || code <= 32) break;
    }
    return i === start ? -1 : i;
  }
  const closers: number[] = [];
  for (let i = start; i < payload.length; i++) {
    const code = payload.charCodeAt(i);
    if (code === QUOTE) {
      i = stringEnd(payload, i) - 1;
      if (i < 0) return -1;
    } else if (code === OPEN_BRACE) closers.push(CLOSE_BRACE);
    else if (code === OPEN_BRACKET) closers.push(CLOSE_BRACKET);
    else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      if (closers.pop() !== code) return -1;
      if (closers.length === 0) return i + 1;
    }
  }
  return -1;
}

function skipSpace(payload: string, start: number): number {
  let i = start;
  for (;;) {
    const code = payload.charCodeAt(i);
    // JSON's whitespace: space, tab, LF, CR.
    if (code !== 32 && code !== 9 && code !== 10 && code !== 13) return i;
    i++;
  }
}
