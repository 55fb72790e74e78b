/**
 * The interop matrix: {our client, the official SDK's v2 client} × {our sample agent, an agent
 * written with the official SDK} × {stdio, WebSocket}. Every cell runs a turn with streamed
 * text, a tool call behind a permission request, and a cancelled turn, against real processes
 * and sockets. The official client × the official agent is the SDK's own business: not a cell.
 * The table is printed at the end of the run.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type AgentTarget,
  acpKitClient,
  assertBuilt,
  type ClientDriver,
  E2E_ROOT,
  InteropMatrix,
  sampleAgentCommand,
  sdkAgentCommand,
  sdkClient,
  startSampleWsAgent,
  startSdkWsAgent,
  stopAllProcesses,
  type WsAgent,
} from "../src/index.js";

beforeAll(() => assertBuilt());
afterEach(() => stopAllProcesses());

const matrix = new InteropMatrix();
afterAll(() => {
  const table = `ACP v2 interop matrix (${new Date().toISOString()})\n${matrix.format()}\n`;
  process.stdout.write(`\n${table}\n`);
  // Also kept next to the test report, for whoever reads the results later.
  mkdirSync(join(E2E_ROOT, ".test-results"), { recursive: true });
  writeFileSync(join(E2E_ROOT, ".test-results", "interop-matrix.txt"), table);
});

interface AgentUnderTest {
  name: string;
  stdio(): [string, string[]];
  websocket(): Promise<WsAgent>;
  prompts: { text: string; permission: string; cancel: string };
}

const sampleAgent: AgentUnderTest = {
  name: "acp-kit sample agent",
  stdio: () => sampleAgentCommand(),
  websocket: () => startSampleWsAgent(),
  prompts: { text: "/help", permission: "show me everything", cancel: "/slow 30" },
};

const sdkAgent: AgentUnderTest = {
  name: "SDK agent",
  stdio: () => sdkAgentCommand(),
  websocket: () => startSdkWsAgent(),
  prompts: { text: "hello", permission: "hello", cancel: "/slow" },
};

const cells: [string, ClientDriver, AgentUnderTest][] = [
  [`${acpKitClient.name} × ${sampleAgent.name}`, acpKitClient, sampleAgent],
  [`${acpKitClient.name} × ${sdkAgent.name}`, acpKitClient, sdkAgent],
  [`${sdkClient.name} × ${sampleAgent.name}`, sdkClient, sampleAgent],
];

describe.each(cells)("%s", (_name, client, agent) => {
  it.each(["stdio", "websocket"] as const)("over %s", async (transport) => {
    let target: AgentTarget;
    if (transport === "stdio") {
      const [command, args] = agent.stdio();
      target = { transport, command, args };
    } else {
      target = { transport, url: (await agent.websocket()).url };
    }
    const where = { client: client.name, agent: agent.name, transport };
    const session = await client.open(target, "/work/interop");
    try {
      await matrix.run(where, "streamed text", async () => {
        const report = await session.turn(agent.prompts.text);
        expect(report.stopReason).toBe("end_turn");
        expect(report.chunks).toBeGreaterThan(1);
        expect(report.text.length).toBeGreaterThan(0);
      });
      await matrix.run(where, "permission", async () => {
        const report = await session.turn(agent.prompts.permission);
        expect(report.stopReason).toBe("end_turn");
        expect(report.permissions).toHaveLength(1);
        const subject = report.permissions[0]?.subject as { type: string; toolCall: { toolCallId: string } };
        expect(subject.type).toBe("tool_call");
        expect(report.toolStatuses.get(subject.toolCall.toolCallId)).toBe("completed");
      });
      await matrix.run(where, "cancel", async () => {
        const report = await session.cancelledTurn(agent.prompts.cancel);
        expect(report.stopReason).toBe("cancelled");
        for (const status of report.toolStatuses.values())
          expect(["cancelled", "completed", "failed"]).toContain(status);
      });
    } finally {
      await session.close();
    }
  });
});
