import { afterEach, describe, expect, it } from "vitest";
import { createInMemoryTransportPair } from "../jsonrpc/in-memory-transport.js";
import { createAgentSideConnection, createClientSideConnection } from "./acp-connection.js";
import { AcpHandlerTable, createAgentHandlerTable } from "./acp-handler-table.js";
import { clientSideTables } from "./side-tables.js";

const info = { name: "test", version: "1.0.0" };
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

interface Owner {
  name: string;
  cancelled: string[];
}

function served(table: AcpHandlerTable<"agent", Owner>, name: string) {
  const owner: Owner = { name, cancelled: [] };
  const [ta, tb] = createInMemoryTransportPair();
  const agent = createAgentSideConnection(ta, { validateOutgoing: true }, table.serving(owner));
  // The client sends what it is given, so the agent sees bad params.
  const client = createClientSideConnection(tb, { validateOutgoing: false });
  cleanups.push(
    () => agent.close(),
    () => client.close(),
  );
  agent.listen();
  client.listen();
  return { owner, agent, client };
}

function agentTable(): AcpHandlerTable<"agent", Owner> {
  const table = createAgentHandlerTable<Owner>();
  table.onRequest("initialize", (owner, params, context) => {
    expect(context.method).toBe("initialize");
    return {
      protocolVersion: params.protocolVersion,
      info: { name: owner.name, version: "1.0.0" },
      capabilities: {},
    };
  });
  table.onNotification("session/cancel", (owner, params) => void owner.cancelled.push(params.sessionId));
  return table;
}

describe("AcpHandlerTable: one agent's handlers shared by its connections", () => {
  it("decodes params and checks results on each connection, each handler getting its connection's owner", async () => {
    const table = agentTable();
    const one = served(table, "one");
    const two = served(table, "two");
    const initialize = { protocolVersion: 2, info, capabilities: {} } as const;
    const [first, second] = await Promise.all([
      one.client.request("initialize", initialize),
      two.client.request("initialize", initialize),
    ]);
    expect(first.info.name).toBe("one");
    expect(second.info.name).toBe("two");
    // What the answered initialize advertised now governs the connection (as for own handlers).
    expect(one.agent.advertised.agent).toEqual({ capabilities: {}, authMethods: [] });
    await one.client.notify("session/cancel", { sessionId: "s1" });
    await expect.poll(() => one.owner.cancelled).toEqual(["s1"]);
    expect(two.owner.cancelled).toEqual([]);
  });

  it("answers bad params -32602 before the shared handler runs", async () => {
    const table = createAgentHandlerTable<Owner>();
    let ran = false;
    table.onRequest("initialize", () => {
      ran = true;
      return { protocolVersion: 2, info, capabilities: {} };
    });
    const { client } = served(table, "one");
    await expect(client.request("initialize", { protocolVersion: "two" } as never, undefined)).rejects.toMatchObject({
      code: -32602,
    });
    expect(ran).toBe(false);
  });

  it("answers a shared handler's invalid result -32603 on a connection that validates what it sends", async () => {
    const table = createAgentHandlerTable<Owner>();
    table.onRequest("initialize", () => ({ protocolVersion: 2, info: { name: 7 }, capabilities: {} }) as never);
    const { client } = served(table, "one");
    await expect(client.request("initialize", { protocolVersion: 2, info, capabilities: {} })).rejects.toMatchObject({
      code: -32603,
    });
  });

  it("refuses a table of the other side, and methods its side does not handle", () => {
    const clientTable = new AcpHandlerTable<"client", Owner>(clientSideTables());
    const [ta] = createInMemoryTransportPair();
    expect(() => createAgentSideConnection(ta, {}, clientTable.serving({ name: "x", cancelled: [] }) as never)).toThrow(
      /client-side handler table on a agent-side connection/,
    );
    expect(() =>
      createAgentHandlerTable<Owner>().onRequest("session/update" as never, () => undefined as never),
    ).toThrow(/not a request the agent handles/);
  });
});
