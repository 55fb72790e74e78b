/** @jsxRuntime automatic @jsxImportSource react */
// A React view of a session: `useSyncExternalStore` over the session store. The store's
// `subscribe` and `getSnapshot` are bound and the snapshot is immutable (a new object only when
// something changed), which is what the hook needs. The third argument, `getServerSnapshot`,
// is what server rendering and hydration read; here the same store serves both.
// Run: tsx packages/client/examples/react.tsx   (renders to a string, so it runs in Node)
import { defineAgent } from "@acp-kit/agent";
import { connectToAgent, type SessionSnapshot, type SessionStore, textOf } from "@acp-kit/client";
import { createInMemoryTransportPair } from "@acp-kit/protocol/jsonrpc";
import { useSyncExternalStore } from "react";
import { renderToString } from "react-dom/server";

export function useSessionSnapshot(store: SessionStore): SessionSnapshot {
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}

export function Timeline({ store }: { store: SessionStore }) {
  const { timeline, state } = useSessionSnapshot(store);
  return (
    <section>
      <ol>
        {timeline.map((entry) =>
          entry.type === "message" ? (
            <li key={entry.messageId} className={entry.kind}>
              {textOf(entry.content)}
            </li>
          ) : entry.type === "tool_call" ? (
            <li key={entry.toolCallId}>
              {entry.title} ({entry.status})
            </li>
          ) : null,
        )}
      </ol>
      <p>{state.state === "running" ? "Working…" : `Stopped: ${state.stopReason ?? "-"}`}</p>
    </section>
  );
}

const agent = defineAgent({
  info: { name: "react-example-agent", version: "1.0.0" },
  async prompt(turn) {
    await turn.toolCall({ title: "Look around", kind: "search" }).complete();
    await turn.say("Hello from the agent.");
    return "end_turn";
  },
});
const [agentSide, clientSide] = createInMemoryTransportPair();
agent.serve(agentSide);
const client = await connectToAgent(clientSide, { info: { name: "react-example", version: "1.0.0" } });
const session = await client.newSession({ cwd: process.cwd() });
await session.prompt("Hi!").done;
console.log(renderToString(<Timeline store={session.store} />));
await client.close();
