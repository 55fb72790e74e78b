/**
 * What a session store holds beside the history: the foreground state of the latest
 * `state_update` (a full snapshot each time) and the live notices. Neither is history, so the
 * shared fold ignores both and neither is replayed.
 */
import { patchMeta } from "@acp-kit/protocol";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import type { ForegroundState, NoticeEntry } from "./types.js";

type UpdateOf<Tag extends SessionUpdate["sessionUpdate"]> = Extract<SessionUpdate, { sessionUpdate: Tag }>;

export const INITIAL_STATE: ForegroundState = Object.freeze({ state: "idle", rawState: "idle" });

function knownState(raw: string): ForegroundState["state"] {
  return raw === "idle" || raw === "running" || raw === "requires_action" ? raw : "unknown";
}

/** The foreground state a `state_update` reports: `stopReason` (and its `error`) on idle only. */
export function foregroundState(update: UpdateOf<"state_update">): ForegroundState {
  let next: ForegroundState = { state: knownState(update.state), rawState: update.state };
  if (update.state === "idle" && typeof update.stopReason === "string") {
    next = { ...next, stopReason: update.stopReason };
    if (update.stopReason === "error" && update.error) next = { ...next, error: update.error };
  }
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
