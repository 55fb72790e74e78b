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

/**
 * Several payloads as consecutive NDJSON lines, in one flat string: what `frameLine` gives for
 * each, joined. A coalesced write checks its batch once instead of scanning (and so flattening)
 * every payload as it is queued: when the batch holds no CR and exactly one LF per payload, the
 * LFs are the separators and no payload needs reframing, which is always so for payloads
 * serialized by `JSON.stringify`. (`payloads` is left as it was.)
 */
export function frameLines(payloads: string[]): string {
  const count = payloads.length;
  payloads.push(""); // the last line's LF, without concatenating onto the joined batch
  const joined = payloads.join("\n");
  payloads.pop();
  if (joined.indexOf("\r") === -1 && lineFeeds(joined, count + 1) === count) return joined;
  let framed = "";
  for (const payload of payloads) framed += frameLine(payload);
  return framed;
}

/** The LFs in `text`, counting no further than `limit`. */
function lineFeeds(text: string, limit: number): number {
  let found = 0;
  for (let at = text.indexOf("\n"); at !== -1 && found < limit; at = text.indexOf("\n", at + 1)) found++;
  return found;
}
