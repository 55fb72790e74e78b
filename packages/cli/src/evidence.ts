/**
 * Evidence lines that keep what the peer said: an error exactly as sent (`code`, `message`,
 * `data`), and the last whole block of its stderr rather than a few lines cut from it.
 */
import { asMessage, describeEntry, type WireEntry } from "@acp-kit/testkit";

/** Longest evidence line quoting a peer's error (the peer controls its size). */
const MAX_ERROR_CHARS = 4_000;
/** Most stderr lines quoted: whole blocks from the end up to this many (one block always, cut if longer). */
const MAX_EXCERPT_LINES = 40;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A JSON-RPC error object as sent: `{"code":-32603,"message":"Internal error","data":{...}}`. */
function errorJson(error: { code?: unknown; message?: unknown; data?: unknown }): string {
  const sent: Record<string, unknown> = { code: error.code, message: error.message };
  if (error.data !== undefined) sent.data = error.data;
  return JSON.stringify(sent);
}

/** A rejected request as evidence: the peer's error object when it was one, else the message. */
export function describeError(error: unknown): string {
  if (typeof error === "object" && error !== null && typeof (error as { code?: unknown }).code === "number")
    return clip(`error ${errorJson(error as { code?: unknown })}`, MAX_ERROR_CHARS);
  return String((error as Error)?.message ?? error);
}

/** `entry` as evidence; an error response is quoted whole (up to a bound), never cut at 200 characters. */
export function describeAnswer(entry: WireEntry, maxChars = 200): string {
  const m = asMessage(entry.message);
  if (m.method === undefined && m.error !== undefined && typeof m.error === "object")
    return clip(
      `#${entry.seq} agent→client error response (id ${JSON.stringify(m.id)}) ${errorJson(m.error)}`,
      MAX_ERROR_CHARS,
    );
  return describeEntry(entry, maxChars);
}

/** A line that continues the one before it: indented, a closing bracket, or a caret marker. */
const CONTINUES = /^(\s|[}\])^]|$)/;

/**
 * The end of a stderr tail as whole blocks: a block is a line that starts flush left with the
 * indented (or closing-bracket) lines after it, so a stack trace or a pretty-printed JSON dump
 * stays together. Whole blocks are taken from the end while they fit in `maxLines`; the last
 * block is always taken (its last `maxLines` lines when it alone is longer).
 */
export function stderrExcerpt(lines: readonly string[], maxLines = MAX_EXCERPT_LINES): string[] {
  const blocks: string[][] = [];
  for (const line of lines) {
    const last = blocks[blocks.length - 1];
    if (last !== undefined && CONTINUES.test(line)) last.push(line);
    else blocks.push([line]);
  }
  for (const block of blocks) while (block.length > 1 && (block[block.length - 1] as string).trim() === "") block.pop();
  const out: string[] = [];
  for (let i = blocks.length - 1; i >= 0; i--) {
    const block = blocks[i] as string[];
    if (out.length === 0 && block.length > maxLines) return block.slice(-maxLines);
    if (out.length + block.length > maxLines) break;
    out.unshift(...block);
  }
  return out;
}

/** How many stderr lines a tail keeps, and how long each may be (the peer controls both). */
export const STDERR_TAIL_LINES = 200;
const MAX_STDERR_LINE = 1_000;

/** Adds `line` to a bounded stderr tail. */
export function keepStderrLine(tail: string[], line: string): void {
  tail.push(clip(line, MAX_STDERR_LINE));
  if (tail.length > STDERR_TAIL_LINES) tail.shift();
}
