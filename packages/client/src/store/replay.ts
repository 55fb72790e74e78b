/**
 * The coalesced history of a session: the shortest list of `session/update` payloads that
 * rebuilds a snapshot in a fresh store. This is what an agent replays on `session/resume`
 * (one full upsert per entity, terminals as `output` snapshots); a proxy or a persisted client
 * cache can use it the same way. Notices are live-only and are not part of it.
 */
import { encodeBase64, isStopReason } from "@acp-kit/protocol";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import type { ForegroundState, SessionSnapshot, TimelineEntry } from "./types.js";

const MESSAGE_TAGS = { user: "user_message", agent: "agent_message", thought: "agent_thought" } as const;

function entryUpdate(entry: TimelineEntry): SessionUpdate {
  switch (entry.type) {
    case "message":
      return {
        sessionUpdate: MESSAGE_TAGS[entry.kind],
        messageId: entry.messageId,
        content: entry.content.slice(),
        ...(entry.meta === undefined ? {} : { _meta: entry.meta }),
      };
    case "tool_call": {
      const { type: _type, meta, content, locations, ...fields } = entry;
      return {
        sessionUpdate: "tool_call_update",
        ...fields,
        content: content.slice(),
        locations: locations.slice(),
        ...(meta === undefined ? {} : { _meta: meta }),
      };
    }
    case "terminal": {
      const { type: _type, meta, output, ...fields } = entry;
      return {
        sessionUpdate: "terminal_update",
        ...fields,
        ...(output.length > 0 ? { output: { data: encodeBase64(output) } } : {}),
        ...(meta === undefined ? {} : { _meta: meta }),
      };
    }
    case "plan":
      return { sessionUpdate: "plan_update", plan: entry.plan };
    case "compaction": {
      const { type: _type, meta, summary, ...fields } = entry;
      return {
        sessionUpdate: "compaction_update",
        ...fields,
        summary: summary.slice(),
        ...(meta === undefined ? {} : { _meta: meta }),
      };
    }
    case "unknown":
      return { ...entry.update };
  }
}

/** The `state_update` that reports `state` again. */
function stateUpdate(state: ForegroundState): SessionUpdate {
  const rest = {
    ...(state.background === undefined ? {} : { background: state.background.slice() }),
    ...(state.meta === undefined ? {} : { _meta: state.meta }),
  };
  const { rawState, stopReason } = state;
  if (rawState === "running" || rawState === "requires_action")
    return { sessionUpdate: "state_update", state: rawState, ...rest };
  if (rawState !== "idle") {
    // A state this library does not know goes back as received: the schema types only the
    // `_`-prefixed extensions, and a newer peer's un-prefixed value is just as opaque.
    return { sessionUpdate: "state_update", state: rawState as `_${string}`, ...rest };
  }
  if (stopReason === "error")
    return {
      sessionUpdate: "state_update",
      state: "idle",
      stopReason,
      ...(state.error === undefined ? {} : { error: state.error }),
      ...rest,
    };
  if (isStopReason(stopReason)) return { sessionUpdate: "state_update", state: "idle", stopReason, ...rest };
  return { sessionUpdate: "state_update", state: "idle", ...rest };
}

/** Updates that rebuild `snapshot` (except its live-only notices) when applied to a fresh store. */
export function coalescedHistory(snapshot: SessionSnapshot): SessionUpdate[] {
  const updates = snapshot.timeline.map(entryUpdate);
  if (snapshot.availableCommands.length > 0)
    updates.push({ sessionUpdate: "available_commands_update", availableCommands: snapshot.availableCommands.slice() });
  if (snapshot.configOptions.length > 0)
    updates.push({ sessionUpdate: "config_option_update", configOptions: snapshot.configOptions.slice() });
  const { meta: infoMeta, ...info } = snapshot.info;
  if (Object.keys(info).length > 0 || infoMeta !== undefined) {
    updates.push({
      sessionUpdate: "session_info_update",
      ...info,
      ...(infoMeta === undefined ? {} : { _meta: infoMeta }),
    });
  }
  if (snapshot.usage !== undefined) updates.push({ sessionUpdate: "usage_update", ...snapshot.usage });
  updates.push(stateUpdate(snapshot.state));
  return updates;
}
