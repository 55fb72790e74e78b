/**
 * The acp-kit transcript: a JSON Lines record of one ACP conversation, as seen on the wire.
 *
 * Line 1 is the header, every other line one payload:
 *
 *   {"acpTranscript":1,"startedAt":"2026-01-01T00:00:00.000Z","meta":{...}}
 *   {"t":12.5,"from":"client","bytes":118,"msg":{"jsonrpc":"2.0","id":0,"method":"initialize",...}}
 *   {"t":40.1,"from":"agent","bytes":230,"ms":27.6,"msg":{"jsonrpc":"2.0","id":0,"result":{...}}}
 *
 * `t` is milliseconds since `startedAt`; `from` is the side that sent the payload; `ms` (on
 * responses) is the time the request took; `msg` is the payload parsed, or `raw` holds the
 * text when it was not JSON. Readers ignore fields they do not know.
 */
import { LocalError } from "../jsonrpc/local-error.js";
import { isRecord } from "../jsonrpc/records.js";
import { utf8Length, type WireEvent, type WireTap } from "../jsonrpc/wire-observer.js";

export const TRANSCRIPT_VERSION = 1;

export type TranscriptSide = "client" | "agent";

export interface TranscriptHeader {
  acpTranscript: number;
  startedAt: string;
  meta?: Record<string, unknown>;
}

export interface TranscriptEntry {
  /** Milliseconds since the header's `startedAt`. */
  t: number;
  from: TranscriptSide;
  bytes: number;
  /** Responses: how long the request took, in milliseconds. */
  ms?: number;
  /** The payload parsed (absent when it was not JSON: see `raw`). */
  msg?: unknown;
  raw?: string;
}

export interface Transcript {
  header: TranscriptHeader;
  entries: TranscriptEntry[];
}

export interface TranscriptWriterOptions {
  /** Receives each line, without its newline. */
  write: (line: string) => void;
  /** With `tap`: which side the tapped connection is (its `out` payloads are from this side). */
  side?: TranscriptSide;
  meta?: Record<string, unknown>;
  /** Clock for `t` (default `Date.now`). */
  now?: () => number;
}

const round = (ms: number) => Math.round(ms * 100) / 100;

/** Writes a transcript line by line: the header at once, then one line per payload. */
export class TranscriptWriter {
  readonly #write: (line: string) => void;
  readonly #side: TranscriptSide;
  readonly #start: number;
  readonly #now: () => number;

  constructor(options: TranscriptWriterOptions) {
    this.#write = options.write;
    this.#side = options.side ?? "client";
    this.#now = options.now ?? Date.now;
    this.#start = this.#now();
    const header: TranscriptHeader = {
      acpTranscript: TRANSCRIPT_VERSION,
      startedAt: new Date(this.#start).toISOString(),
    };
    if (options.meta !== undefined) header.meta = options.meta;
    this.#write(JSON.stringify(header));
  }

  /** A `WireTap` for a connection of side `options.side`. */
  readonly tap: WireTap = (event) => {
    const other: TranscriptSide = this.#side === "client" ? "agent" : "client";
    this.record(event.direction === "out" ? this.#side : other, event);
  };

  /** Records one payload sent by `from`. */
  record(from: TranscriptSide, event: Pick<WireEvent, "time" | "bytes" | "payload" | "message" | "durationMs">): void {
    const entry: TranscriptEntry = { t: round(event.time - this.#start), from, bytes: event.bytes };
    if (event.durationMs !== undefined) entry.ms = round(event.durationMs);
    if (event.message === undefined) entry.raw = event.payload;
    else entry.msg = event.message;
    this.#write(JSON.stringify(entry));
  }
}

/** A transcript line that cannot be read, with its 1-based line number. */
export class TranscriptError extends LocalError {
  override readonly name = "TranscriptError";
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`transcript line ${line}: ${message}`);
  }
}

function parseLine(text: string, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new TranscriptError(line, `not JSON (${(error as Error).message})`);
  }
}

/** Reads the header line. */
export function readTranscriptHeader(text: string, line = 1): TranscriptHeader {
  const value = parseLine(text, line);
  if (!isRecord(value) || typeof value.acpTranscript !== "number")
    throw new TranscriptError(line, 'expected the header {"acpTranscript":1,...}');
  if (value.acpTranscript > TRANSCRIPT_VERSION)
    throw new TranscriptError(line, `transcript version ${value.acpTranscript} is newer than ${TRANSCRIPT_VERSION}`);
  if (typeof value.startedAt !== "string") throw new TranscriptError(line, "the header has no startedAt");
  // Fields a newer writer adds are kept; a `meta` that is not an object is no metadata.
  const { meta, ...rest } = value;
  return {
    ...rest,
    acpTranscript: value.acpTranscript,
    startedAt: value.startedAt,
    ...(isRecord(meta) ? { meta } : {}),
  };
}

/** Reads one payload line. */
export function readTranscriptEntry(text: string, line: number): TranscriptEntry {
  const value = parseLine(text, line);
  if (!isRecord(value)) throw new TranscriptError(line, "expected an object");
  if (value.from !== "client" && value.from !== "agent")
    throw new TranscriptError(line, `"from" must be "client" or "agent", got ${JSON.stringify(value.from)}`);
  if (typeof value.t !== "number" || !Number.isFinite(value.t)) throw new TranscriptError(line, '"t" must be a number');
  if (!("msg" in value) && typeof value.raw !== "string") throw new TranscriptError(line, 'expected "msg" or "raw"');
  const { ms, raw, bytes, ...rest } = value;
  const payload = typeof raw === "string" ? raw : JSON.stringify(value.msg);
  return {
    ...rest,
    from: value.from,
    t: value.t,
    // A hand-written line may leave out the byte count: it is the payload's UTF-8 length.
    bytes: typeof bytes === "number" ? bytes : utf8Length(payload),
    ...(typeof ms === "number" ? { ms } : {}),
    ...(typeof raw === "string" ? { raw } : {}),
  };
}

/** Parses a whole transcript (blank lines are skipped). */
export function parseTranscript(text: string): Transcript {
  const lines = text.split("\n");
  let header: TranscriptHeader | undefined;
  const entries: TranscriptEntry[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line.length === 0) continue;
    if (header === undefined) header = readTranscriptHeader(line, i + 1);
    else entries.push(readTranscriptEntry(line, i + 1));
  }
  if (header === undefined) throw new TranscriptError(1, "the transcript is empty");
  return { header, entries };
}
