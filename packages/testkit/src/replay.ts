/**
 * Replays the client side of a transcript against a live agent and diffs what the agent
 * answers against what it answered in the recording.
 *
 * Client messages go out in their recorded order. Before each one, the replay waits for the
 * agent messages recorded before it: responses and agent requests must arrive (up to
 * `stepTimeoutMs`), other messages get a short grace (`settleMs`). Ids the agent generates
 * (session ids, message ids...) are learnt from its live answers and substituted into later
 * client messages; the client's answers to agent requests go out under the live request ids.
 */
import { type Transport, tapTransport } from "@acp-kit/protocol/jsonrpc";
import type { Transcript, TranscriptEntry } from "@acp-kit/protocol/tap";
import { lineDiff, Normalizer } from "./normalize.js";
import { asMessage, type WireEntry, WireLog } from "./wire-log.js";

export interface ReplayOptions {
  /** How long one awaited agent message may take (default 10 s). */
  stepTimeoutMs?: number;
  /** Grace for notifications before the next client message, and at the end (default 500 ms). */
  settleMs?: number;
  /** Join consecutive chunks of one message before comparing (default true: chunking may vary). */
  joinChunks?: boolean;
}

export interface ReplayResult {
  /** The agent's messages matched the recording (after normalization). */
  readonly equal: boolean;
  /** Unified-style lines: `  same`, `- recorded only`, `+ live only`. */
  readonly diff: string[];
  readonly recorded: number;
  readonly live: number;
  readonly log: WireLog;
}

const ID_KEY = /(^id$|Id$)/;

/** Learns recorded→live substitutions from two versions of one answer. */
function learn(recorded: unknown, live: unknown, into: Map<string, unknown>, key = ""): void {
  if (typeof recorded === "string" && ID_KEY.test(key) && recorded !== live) into.set(recorded, live);
  else if (Array.isArray(recorded) && Array.isArray(live)) {
    for (let i = 0; i < recorded.length; i++) learn(recorded[i], live[i], into, key);
  } else if (recorded && live && typeof recorded === "object" && typeof live === "object")
    for (const [k, v] of Object.entries(recorded)) learn(v, (live as Record<string, unknown>)[k], into, k);
}

function substitute(value: unknown, map: Map<string, unknown>): unknown {
  if (typeof value === "string") return map.has(value) ? map.get(value) : value;
  if (Array.isArray(value)) return value.map((v) => substitute(v, map));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, map)]));
  return value;
}

/** One agent message as a comparable line. */
function lines(messages: unknown[], joinChunks: boolean): string[] {
  const normalizer = new Normalizer();
  const out: string[] = [];
  let lastChunk: { key: string; index: number; text: string } | undefined;
  for (const message of messages) {
    const m = asMessage(message);
    const update = m.params?.update as
      | { sessionUpdate?: string; messageId?: unknown; content?: { type?: string; text?: unknown } }
      | undefined;
    if (joinChunks && update?.sessionUpdate?.endsWith("_chunk") && update.content?.type === "text") {
      const key = `${update.sessionUpdate}\u0000${String(update.messageId)}`;
      if (lastChunk?.key === key) {
        lastChunk.text += String(update.content.text);
        const joined = {
          ...(message as object),
          params: { ...m.params, update: { ...update, content: { type: "text", text: lastChunk.text } } },
        };
        out[lastChunk.index] = JSON.stringify(normalizer.normalize(joined));
        continue;
      }
      lastChunk = { key, index: out.length, text: String(update.content.text) };
    } else lastChunk = undefined;
    out.push(JSON.stringify(normalizer.normalize(message)));
  }
  return out;
}

export async function replayTranscript(
  transcript: Transcript,
  transport: Transport,
  options: ReplayOptions = {},
): Promise<ReplayResult> {
  const stepTimeoutMs = options.stepTimeoutMs ?? 10_000;
  const settleMs = options.settleMs ?? 500;
  const log = new WireLog();
  const substitutions = new Map<string, unknown>();
  const recordedAgent: TranscriptEntry[] = [];
  /** Live agent requests by method, in arrival order, to map recorded ids of agent requests. */
  const recordedAgentRequests = new Map<unknown, { method: string; ordinal: number }>();
  const recordedRequestCounts = new Map<string, number>();

  let sink: ((payload: string) => void) | undefined;
  let closed = false;
  const tapped = tapTransport(transport, log.tapFor("client"));
  tapped.start({
    message: () => {},
    closed: () => {
      closed = true;
      log.close();
    },
  });
  sink = (payload) => void tapped.send(payload);

  const liveAgent = (): WireEntry[] => log.entries.filter((e) => e.from === "agent");
  const liveRequest = (method: string, ordinal: number): WireEntry | undefined =>
    liveAgent().filter((e) => asMessage(e.message).method === method && asMessage(e.message).id !== undefined)[ordinal];

  const clientRequestIds = new Set<unknown>();
  for (const entry of transcript.entries) {
    if (entry.from === "agent") {
      recordedAgent.push(entry);
      const m = asMessage(entry.msg);
      if (m.method !== undefined && m.id !== undefined) {
        const ordinal = recordedRequestCounts.get(m.method) ?? 0;
        recordedRequestCounts.set(m.method, ordinal + 1);
        recordedAgentRequests.set(m.id, { method: m.method, ordinal });
      }
      continue;
    }
    if (closed) break;
    // Wait for what the agent had sent by this point of the recording.
    for (const before of recordedAgent.splice(0)) {
      const m = asMessage(before.msg);
      if (m.method === undefined && clientRequestIds.has(m.id)) {
        const live = await log.waitFor(
          (e) => e.from === "agent" && asMessage(e.message).id === m.id && asMessage(e.message).method === undefined,
          { timeoutMs: stepTimeoutMs },
        );
        if (live) learn(m.result, asMessage(live.message).result, substitutions, "");
      } else if (m.method !== undefined && m.id !== undefined) {
        const at = recordedAgentRequests.get(m.id);
        if (at) await log.waitFor(() => liveRequest(at.method, at.ordinal) !== undefined, { timeoutMs: stepTimeoutMs });
      }
    }
    await new Promise((r) => setTimeout(r, Math.min(settleMs, 50)));
    const m = asMessage(entry.msg);
    let message = substitute(entry.msg, substitutions);
    if (m.method === undefined && m.id !== undefined) {
      // An answer to an agent request: send it under the live request's id.
      const at = recordedAgentRequests.get(m.id);
      const live = at && liveRequest(at.method, at.ordinal);
      if (live === undefined) continue;
      message = { ...(message as object), id: asMessage(live.message).id };
    } else if (m.method !== undefined && m.id !== undefined) clientRequestIds.add(m.id);
    if (entry.msg === undefined && entry.raw !== undefined) sink(entry.raw);
    else sink(JSON.stringify(message));
  }
  // The rest of the recording: wait until as many agent messages arrived, or it goes quiet.
  const expected = transcript.entries.filter((e) => e.from === "agent").length;
  const deadline = Date.now() + stepTimeoutMs;
  let lastCount = -1;
  while (!closed && liveAgent().length < expected && Date.now() < deadline) {
    const count = liveAgent().length;
    if (count === lastCount) break;
    lastCount = count;
    await new Promise((r) => setTimeout(r, settleMs));
  }
  await tapped.close();

  const joinChunks = options.joinChunks ?? true;
  const before = lines(
    transcript.entries.filter((e) => e.from === "agent").map((e) => e.msg ?? e.raw),
    joinChunks,
  );
  const after = lines(
    liveAgent().map((e) => e.message ?? e.payload),
    joinChunks,
  );
  const diff = lineDiff(before, after);
  return {
    equal: diff.every((l) => l.startsWith("  ")),
    diff,
    recorded: before.length,
    live: after.length,
    log,
  };
}
