// What the browser test runs, in Chromium and in Node alike: a turn with a permission request, a
// cancelled turn, then a long turn whose streams the test may cut; it returns the session's store
// in a form two runs can be compared in (entity ids replaced by their order of appearance).
import { connectToAgent, type SessionSnapshot } from "@acp-kit/client";
import type { Transport } from "@acp-kit/protocol/jsonrpc";
import { allowOnce } from "../../../client/test/support/allow-once.js";

/** The long turn: the agent says this many chunks, pausing at each gate for the test. */
export const CHUNKS = 200;
export const GATES = [40, 100, 160];

export interface ScenarioResult {
  stopReasons: (string | undefined)[];
  store: unknown;
}

/** `progress` gets the number of chunks of the long turn the store holds, after every change. */
export async function runScenario(transport: Transport, progress: (chunks: number) => void): Promise<ScenarioResult> {
  const client = await connectToAgent(transport, {
    info: { name: "browser-client", version: "1.0.0" },
    handlers: allowOnce,
  });
  try {
    const session = await client.newSession({ cwd: "/w" });
    const stopReasons: (string | undefined)[] = [];
    stopReasons.push((await session.prompt("edit main.ts").done).stopReason);
    const watch = session.prompt("watch the files");
    for await (const update of watch) {
      if (update.sessionUpdate === "tool_call_update" && (update as { status?: string }).status === "in_progress")
        break;
    }
    await watch.cancel();
    stopReasons.push((await watch.done).stopReason);
    const stop = session.store.subscribe(() => progress(chunksIn(session.store.getSnapshot())));
    stopReasons.push((await session.prompt(`gated ${CHUNKS}`).done).stopReason);
    stop();
    return { stopReasons, store: comparable(session.store.getSnapshot()) };
  } finally {
    await client.close();
  }
}

function chunksIn(snapshot: SessionSnapshot): number {
  let count = 0;
  for (const message of snapshot.messages.agent.values()) {
    const [block] = message.content;
    if (block?.type === "text" && block.text.startsWith("chunk ")) count++;
  }
  return count;
}

/** The snapshot as plain JSON, every entity id replaced by `#n` in the order entities appeared. */
export function comparable(snapshot: SessionSnapshot): unknown {
  const ids = new Map<string, string>();
  const maps = [
    snapshot.messages.user,
    snapshot.messages.agent,
    snapshot.messages.thought,
    snapshot.toolCalls,
    snapshot.terminals,
    snapshot.plans,
    snapshot.compactions,
  ];
  for (const map of maps) for (const id of map.keys()) ids.set(id, `#${ids.size}`);
  const plain = (value: unknown): unknown => {
    if (typeof value === "string") return ids.get(value) ?? value;
    if (value instanceof Map) return [...value].map(([key, entry]) => [plain(key), plain(entry)]);
    if (value instanceof Uint8Array) return { bytes: [...value] };
    if (Array.isArray(value)) return value.map(plain);
    if (value !== null && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, plain(entry)]));
    return value;
  };
  return plain(snapshot);
}
