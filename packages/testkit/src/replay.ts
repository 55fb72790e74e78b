/**
 * Replays the client side of a transcript against a live agent and diffs what the agent
 * answers against what it answered in the recording.
 *
 * Client messages go out in their recorded order. Before each one, the replay waits for the
 * agent messages recorded before it: responses and agent requests must arrive (up to
 * `stepTimeoutMs`), other messages get a short grace (`settleMs`). Ids the agent generates
 * (session ids, message ids...) are learnt from its live answers and substituted into later
 * client messages; the client's answers to agent requests go out under the live request ids.
 *
 * The comparison is per entity (each message, tool call, plan, terminal, the session-level
 * updates, the rest): each one's sequence must match, not the global interleaving, so a
 * session-level update landing at another point among a turn's chunks is no difference.
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
  /** Unified-style lines per entity, under a `  # <entity>` heading: `  same`, `- recorded only`, `+ live only`. */
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

/** Session-level updates: state of the session, not of a turn; they may land anywhere among a turn's updates. */
const SESSION_LEVEL = new Set([
  "available_commands_update",
  "config_option_update",
  "current_mode_update",
  "session_info_update",
  "usage_update",
]);

/**
 * The entity a (normalized) agent message belongs to: a message, a tool call, a plan, a
 * terminal, the session-level updates of a session, or the rest (responses, requests, state).
 * Each entity's messages keep their order; how entities interleave is not compared.
 */
function entityOf(message: unknown): string {
  const m = asMessage(message);
  const update = m.params?.update as Record<string, unknown> | undefined;
  if (m.method !== "session/update" || update === undefined) return "requests, responses and notifications";
  const session = String(m.params?.sessionId);
  const kind = String(update.sessionUpdate);
  if (SESSION_LEVEL.has(kind)) return `session-level updates of ${session}`;
  if (typeof update.messageId === "string") return `message ${update.messageId}`;
  if (typeof update.toolCallId === "string") return `tool call ${update.toolCallId}`;
  if (typeof update.terminalId === "string") return `terminal ${update.terminalId}`;
  const plan = update.plan as { planId?: unknown } | undefined;
  if (kind === "plan_update" && typeof plan?.planId === "string") return `plan ${plan.planId}`;
  if (kind === "plan") return `plan of ${session}`;
  return "requests, responses and notifications";
}

/**
 * The agent's messages as comparable lines, grouped by entity (in order of first appearance);
 * with `joinChunks`, consecutive text chunks of one message are joined into one line.
 */
function entityLines(messages: unknown[], joinChunks: boolean): Map<string, string[]> {
  const normalizer = new Normalizer();
  const out = new Map<string, { lines: string[]; lastChunk?: { key: string; text: string } }>();
  for (const message of messages) {
    const normalized = normalizer.normalize(message);
    const entity = entityOf(normalized);
    let group = out.get(entity);
    if (group === undefined) out.set(entity, (group = { lines: [] }));
    const m = asMessage(normalized);
    const update = m.params?.update as
      | { sessionUpdate?: string; content?: { type?: string; text?: unknown } }
      | undefined;
    if (joinChunks && update?.sessionUpdate?.endsWith("_chunk") && update.content?.type === "text") {
      if (group.lastChunk?.key === update.sessionUpdate) {
        group.lastChunk.text += String(update.content.text);
        const joined = {
          ...(normalized as object),
          params: { ...m.params, update: { ...update, content: { type: "text", text: group.lastChunk.text } } },
        };
        group.lines[group.lines.length - 1] = JSON.stringify(joined);
        continue;
      }
      group.lastChunk = { key: update.sessionUpdate, text: String(update.content.text) };
    } else delete group.lastChunk;
    group.lines.push(JSON.stringify(normalized));
  }
  return new Map([...out].map(([entity, group]) => [entity, group.lines]));
}

/** Each entity's sequence diffed on its own, under a `  # entity` heading; entities in first-appearance order. */
function entityDiff(before: Map<string, string[]>, after: Map<string, string[]>): string[] {
  const entities = [...new Set([...before.keys(), ...after.keys()])];
  const diff: string[] = [];
  for (const entity of entities) {
    diff.push(`  # ${entity}`);
    diff.push(...lineDiff(before.get(entity) ?? [], after.get(entity) ?? []));
  }
  return diff;
}

const count = (groups: Map<string, string[]>) => [...groups.values()].reduce((n, lines) => n + lines.length, 0);

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
  const before = entityLines(
    transcript.entries.filter((e) => e.from === "agent").map((e) => e.msg ?? e.raw),
    joinChunks,
  );
  const after = entityLines(
    liveAgent().map((e) => e.message ?? e.payload),
    joinChunks,
  );
  const diff = entityDiff(before, after);
  return {
    equal: diff.every((l) => l.startsWith("  ")),
    diff,
    recorded: count(before),
    live: count(after),
    log,
  };
}
