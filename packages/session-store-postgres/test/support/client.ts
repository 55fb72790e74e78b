/** A client over the in-memory pair for the store's engine tests: it keeps every update it received. */
import type { defineAgent } from "@acp-kit/agent";
import { Connection, createInMemoryTransportPair } from "@acp-kit/protocol/jsonrpc";

export interface Update {
  sessionUpdate: string;
  state?: string;
  stopReason?: string;
  error?: { code: number; message: string };
  content?: { text?: string } | { text?: string }[];
}

/** A client over the in-memory pair that keeps every update it received, in order. */
export function clientOf(agent: ReturnType<typeof defineAgent>) {
  const [agentSide, clientSide] = createInMemoryTransportPair();
  const served = agent.serve(agentSide);
  const conn = new Connection(clientSide);
  const updates: Update[] = [];
  const waiters: (() => void)[] = [];
  conn.onNotification("session/update", (params: { update: Update }) => {
    updates.push(params.update);
    for (const wake of waiters.splice(0)) wake();
  });
  conn.listen();
  const until = async (predicate: () => boolean, timeoutMs = 30_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`timed out; last updates: ${JSON.stringify(updates.slice(-3))}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  };
  const request = (method: string, params: unknown) => conn.request(method as never, params as never) as Promise<any>;
  return {
    updates,
    until,
    request,
    idle: () => updates.filter((u) => u.sessionUpdate === "state_update" && u.state === "idle"),
    history: () => updates.filter((u) => u.sessionUpdate !== "state_update" && u.sessionUpdate !== "notice"),
    async close() {
      await conn.close();
      await served.closed;
    },
    init: () => request("initialize", { protocolVersion: 2, info: { name: "t", version: "1" }, capabilities: {} }),
  };
}

export const text = (updates: readonly Update[]): string =>
  updates
    .filter((u) => u.sessionUpdate === "agent_message_chunk" || u.sessionUpdate === "agent_message")
    .flatMap((u) => (Array.isArray(u.content) ? u.content : [u.content]))
    .map((c) => c?.text ?? "")
    .join("");
