/**
 * The v1 interop matrix: our client × an agent written with the official SDK's v1 API, and
 * the official SDK's v1 client × our sample agent, over stdio and WebSocket. Neither side is
 * told the version: negotiation decides. Every cell runs a text turn, a permission, a cancel,
 * tool calls with content, a plan, and load/resume with replay, against real processes and
 * sockets; our client also serves the agent's `fs/read_text_file` through its v1 handlers.
 * The table is printed at the end of the run.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type AgentTarget,
  acpKitClientV1,
  assertBuilt,
  E2E_ROOT,
  InteropMatrix,
  sampleAgentCommand,
  sdkV1AgentCommand,
  sdkV1Client,
  startSampleWsAgent,
  startSdkV1WsAgent,
  stopAllProcesses,
  type V1CellDriver,
  type WsAgent,
} from "../src/index.js";

beforeAll(() => assertBuilt());
afterEach(() => stopAllProcesses());

const matrix = new InteropMatrix();
afterAll(() => {
  const table = `ACP v1 interop matrix (${new Date().toISOString()})\n${matrix.format()}\n`;
  process.stdout.write(`\n${table}\n`);
  mkdirSync(join(E2E_ROOT, ".test-results"), { recursive: true });
  writeFileSync(join(E2E_ROOT, ".test-results", "interop-v1-matrix.txt"), table);
});

const agents: Record<string, { stdio(): [string, string[]]; websocket(): Promise<WsAgent> }> = {
  "SDK v1 agent": { stdio: () => sdkV1AgentCommand(), websocket: () => startSdkV1WsAgent() },
  "acp-kit sample agent": { stdio: () => sampleAgentCommand(), websocket: () => startSampleWsAgent() },
};

const cells: [string, V1CellDriver][] = [
  [`${acpKitClientV1.name} × ${acpKitClientV1.agent}`, acpKitClientV1],
  [`${sdkV1Client.name} × ${sdkV1Client.agent}`, sdkV1Client],
];

describe.each(cells)("%s", (_name, driver) => {
  it.each(["stdio", "websocket"] as const)("over %s", async (transport) => {
    const agent = agents[driver.agent];
    if (agent === undefined) throw new Error(`no agent ${driver.agent}`);
    let target: AgentTarget;
    if (transport === "stdio") {
      const [command, args] = agent.stdio();
      target = { transport, command, args };
    } else {
      target = { transport, url: (await agent.websocket()).url };
    }
    const where = { client: driver.name, agent: driver.agent, transport };
    const session = await driver.open(target, "/work/interop");
    try {
      expect(session.protocolVersion).toBe(1);
      await matrix.run(where, "text turn", async () => {
        const report = await session.text();
        expect(report.stopReason).toBe("end_turn");
        expect(report.chunks).toBeGreaterThan(1);
        expect(report.text.length).toBeGreaterThan(0);
      });
      const full = await session.full();
      await matrix.run(where, "permission", async () => {
        expect(full.stopReason).toBe("end_turn");
        expect(full.permissions).toBe(1);
        expect([...full.toolStatuses.values()].every((s) => s === "completed")).toBe(true);
      });
      await matrix.run(where, "tool calls with content", async () => {
        expect(full.toolStatuses.size).toBeGreaterThanOrEqual(2);
        const kinds = [...full.toolContent.values()].flat();
        expect(kinds).toContain("content");
        // A v1 diff reaches our client as a v2 diff; the sample agent's v2 patch reaches a v1 client as a v1 diff.
        expect(kinds).toContain("diff");
      });
      await matrix.run(where, "plan", async () => {
        expect(full.planStatuses.length).toBeGreaterThan(1);
        expect(full.planStatuses.every((s) => s === "completed")).toBe(true);
      });
      await matrix.run(where, "cancel", async () => {
        const report = await session.cancelled();
        expect(report.stopReason).toBe("cancelled");
        expect(report.chunks).toBeGreaterThan(0);
      });
      if (session.readFile !== undefined) {
        const readFile = session.readFile;
        await matrix.run(where, "fs/read_text_file", async () => {
          const report = await readFile("/work/interop/notes.txt");
          expect(report.stopReason).toBe("end_turn");
          expect(report.text).toBe("Read: contents of /work/interop/notes.txt");
        });
      }
      await matrix.run(where, "load/resume", async () => {
        const replay = await session.replay();
        expect(replay.userText).toContain(driver === acpKitClientV1 ? "hello" : "show me everything");
        expect(replay.agentText.length).toBeGreaterThan(0);
        expect(replay.toolCalls).toBeGreaterThanOrEqual(2);
        expect(replay.plans).toBeGreaterThan(0);
      });
    } finally {
      await session.close();
    }
  });
});
