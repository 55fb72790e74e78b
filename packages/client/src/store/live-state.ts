/**
 * What a session store holds beside the history: the foreground state of the latest
 * `state_update` (a full snapshot each time) and the live notices. Neither is history, so the
 * shared fold ignores both and neither is replayed.
 */
import { patchMeta } from "@acp-kit/protocol";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import type { ForegroundState, NoticeEntry, TokenUsage } from "./types.js";

type UpdateOf<Tag extends SessionUpdate["sessionUpdate"]> = Extract<SessionUpdate, { sessionUpdate: Tag }>;

export const INITIAL_STATE: ForegroundState = Object.freeze({ state: "idle", rawState: "idle" });

function knownState(raw: string): ForegroundState["state"] {
  return raw === "idle" || raw === "running" || raw === "requires_action" ? raw : "unknown";
}

const isCount = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value) && value >= 0;
const OPTIONAL_COUNTS = ["thoughtTokens", "cachedReadTokens", "cachedWriteTokens"] as const;

/**
 * The token counts an idle carries (`usage`, see `TokenUsage`), or `undefined` when it has none
 * or they are not counts (the three totals required, the others optional).
 */
export function tokenUsageOf(update: SessionUpdate): TokenUsage | undefined {
  if (update.sessionUpdate !== "state_update" || update.state !== "idle") return undefined;
  // `usage` on an idle is read as unknown and checked below.
  const usage = (update as { usage?: unknown }).usage;
  if (typeof usage !== "object" || usage === null) return undefined;
  // An object (checked above), read field by field.
  const fields = usage as Record<string, unknown>;
  const { totalTokens, inputTokens, outputTokens } = fields;
  if (!isCount(totalTokens) || !isCount(inputTokens) || !isCount(outputTokens)) return undefined;
  let out: TokenUsage = { totalTokens, inputTokens, outputTokens };
  for (const key of OPTIONAL_COUNTS) {
    const value = fields[key];
    if (isCount(value)) out = { ...out, [key]: value };
  }
  const meta = patchMeta(undefined, fields._meta);
  return meta === undefined ? out : { ...out, meta };
}

/** The foreground state a `state_update` reports: `stopReason` (and its `error`) on idle only. */
export function foregroundState(update: UpdateOf<"state_update">): ForegroundState {
  let next: ForegroundState = { state: knownState(update.state), rawState: update.state };
  if (update.state === "idle" && typeof update.stopReason === "string") {
    next = { ...next, stopReason: update.stopReason };
    if (update.stopReason === "error" && update.error) next = { ...next, error: update.error };
  }
  const usage = tokenUsageOf(update);
  if (usage !== undefined) next = { ...next, usage };
  const background = update.background;
  if (Array.isArray(background)) next = { ...next, background: background.slice() };
  const meta = patchMeta(undefined, update._meta);
  return meta === undefined ? next : { ...next, meta };
}

/** The notice a `notice` update shows. */
export function noticeEntry(update: UpdateOf<"notice">): NoticeEntry {
  const { sessionUpdate: _tag, _meta, description, ...rest } = update;
  const meta = patchMeta(undefined, _meta);
  return {
    ...rest,
    ...(typeof description === "string" ? { description } : {}),
    ...(meta === undefined ? {} : { meta }),
  };
}
