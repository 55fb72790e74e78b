/**
 * Comparable session snapshots: ids are generated at random by agents, so two runs of the same
 * script differ only in ids. `normalizeSnapshot` replaces every id with its order of first
 * appearance and keeps everything else, so equal behaviour gives equal JSON.
 */
import type { SessionSnapshot } from "@acp-kit/client";

const ID_KEYS = new Set(["messageId", "toolCallId", "terminalId", "planId", "sessionId", "compactionId"]);

export function normalizeSnapshot(snapshot: SessionSnapshot): unknown {
  const ids = new Map<string, string>();
  const rename = (id: string) => {
    let name = ids.get(id);
    if (name === undefined) {
      name = `#${ids.size + 1}`;
      ids.set(id, name);
    }
    return name;
  };
  const walk = (value: unknown): unknown => {
    if (value instanceof Uint8Array) return new TextDecoder().decode(value);
    if (value instanceof Map) return [...value.values()].map(walk);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [key, inner] of Object.entries(value))
        out[key] = ID_KEYS.has(key) && typeof inner === "string" ? rename(inner) : walk(inner);
      return out;
    }
    return value;
  };
  // The timeline first, so ids are numbered in history order.
  return walk({
    timeline: snapshot.timeline,
    state: snapshot.state,
    configOptions: snapshot.configOptions,
    availableCommands: snapshot.availableCommands,
    info: snapshot.info,
    usage: snapshot.usage,
  });
}
