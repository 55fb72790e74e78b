/**
 * The coalesced history of a session: the shortest list of `session/update` payloads that
 * rebuilds a snapshot in a fresh store. This is what an agent replays on `session/resume`
 * (one full upsert per entity, terminals as `output` snapshots); a proxy or a persisted client
 * cache can use it the same way. Notices are live-only and are not part of it.
 */
import type { SessionUpdate } from "@acp-kit/protocol/types";
import type { SessionSnapshot, TimelineEntry } from "./types.js";

const MESSAGE_TAGS = { user: "user_message", agent: "agent_message", thought: "agent_thought" } as const;

function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

function entryUpdate(entry: TimelineEntry): Record<string, unknown> {
  switch (entry.type) {
    case "message": {
      const update: Record<string, unknown> = {
        sessionUpdate: MESSAGE_TAGS[entry.kind],
        messageId: entry.messageId,
        content: entry.content,
      };
      if (entry.meta !== undefined) update._meta = entry.meta;
      return update;
    }
    case "tool_call": {
      const { type: _type, meta, ...fields } = entry;
      return meta === undefined
        ? { sessionUpdate: "tool_call_update", ...fields }
        : { sessionUpdate: "tool_call_update", ...fields, _meta: meta };
    }
    case "terminal": {
      const { type: _type, meta, output, ...fields } = entry;
      const update: Record<string, unknown> = { sessionUpdate: "terminal_update", ...fields };
      if (output.length > 0) update.output = { data: encodeBase64(output) };
      if (meta !== undefined) update._meta = meta;
      return update;
    }
    case "plan":
      return { sessionUpdate: "plan_update", plan: entry.plan };
    case "compaction": {
      const { type: _type, meta, ...fields } = entry;
      return meta === undefined
        ? { sessionUpdate: "compaction_update", ...fields }
        : { sessionUpdate: "compaction_update", ...fields, _meta: meta };
    }
    case "unknown":
      return { ...entry.update };
  }
}

/** Updates that rebuild `snapshot` (except its live-only notices) when applied to a fresh store. */
export function coalescedHistory(snapshot: SessionSnapshot): SessionUpdate[] {
  const updates: Record<string, unknown>[] = snapshot.timeline.map(entryUpdate);
  if (snapshot.availableCommands.length > 0)
    updates.push({ sessionUpdate: "available_commands_update", availableCommands: snapshot.availableCommands });
  if (snapshot.configOptions.length > 0)
    updates.push({ sessionUpdate: "config_option_update", configOptions: snapshot.configOptions });
  const { meta: infoMeta, ...info } = snapshot.info;
  if (Object.keys(info).length > 0 || infoMeta !== undefined) {
    updates.push({
      sessionUpdate: "session_info_update",
      ...info,
      ...(infoMeta === undefined ? {} : { _meta: infoMeta }),
    });
  }
  if (snapshot.usage !== undefined) updates.push({ sessionUpdate: "usage_update", ...snapshot.usage });
  const { state: _known, rawState, meta: stateMeta, ...state } = snapshot.state;
  updates.push({
    sessionUpdate: "state_update",
    state: rawState,
    ...state,
    ...(stateMeta === undefined ? {} : { _meta: stateMeta }),
  });
  return updates as SessionUpdate[];
}
