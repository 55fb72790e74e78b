/**
 * Turns one payload into one NDJSON line.
 *
 * A raw CR or LF inside a payload would split it into two lines on the wire. In valid JSON
 * text those characters can only be insignificant whitespace between tokens (inside strings
 * they must be escaped as `\n` / `\r`), so replacing each with a space keeps any valid JSON
 * payload equivalent: a pretty-printed payload goes out as one line and parses to the same
 * value. Output of `JSON.stringify` without an indent never contains them, and the check is
 * one scan of the string.
 */
export function frameLine(payload: string): string {
  if (payload.indexOf("\n") !== -1 || payload.indexOf("\r") !== -1) {
    return `${payload.replace(/[\r\n]/g, " ")}\n`;
  }
  return `${payload}\n`;
}
