/**
 * The built `acp-sample-client` rendering foreground work it did not start: an agent that reports
 * back with work of its own after answering a prompt (real processes over stdio).
 */
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  assertBuilt,
  E2E_ROOT,
  SAMPLE_CLIENT_BIN,
  sampleAgentCommand,
  startProcess,
  stopAllProcesses,
  TSX_BIN,
} from "../src/index.js";

beforeAll(() => assertBuilt());
afterEach(() => stopAllProcesses());

describe("acp-sample-client and agent-initiated work", () => {
  it("announces the agent's own work and prints its end line after the prompt's", async () => {
    const fixture = join(E2E_ROOT, "fixtures", "initiating-agent.ts");
    const p = startProcess(process.execPath, [SAMPLE_CLIENT_BIN, "--no-color", "--", TSX_BIN, fixture], {
      cwd: "/tmp",
    });
    p.child.stdin.write("check the build\n");
    await p.waitForLine(/— end_turn · agent work-2/, { stream: "stdout", timeoutMs: 20_000 });
    p.child.stdin.end();
    const { code } = await p.exited;
    const out = p.stdout();
    const order = [
      "› check the build",
      "Noted: check the build. I will report back on my own.",
      "— end_turn",
      "· The agent started work on its own (work-2)",
      "Background check finished.",
      "— end_turn · agent work-2",
    ].map((line) => out.indexOf(line));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(code).toBe(0);
  }, 40_000);

  it("two prompts sent back to back to an agent that queues: each ends with its own line, in order", async () => {
    const [command, args] = sampleAgentCommand();
    const p = startProcess(process.execPath, [SAMPLE_CLIENT_BIN, "--no-color", "--yes", "--", command, ...args], {
      cwd: "/tmp",
    });
    p.child.stdin.write("/slow 1\n");
    p.child.stdin.end("/fail\n");
    const { code } = await p.exited;
    const out = p.stdout();
    const order = [
      "› /slow 1",
      "The long job finished.",
      '— end_turn · "/slow 1"',
      "› /fail",
      "— error: The /fail command failed on purpose",
    ].map((line) => out.indexOf(line));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(code).toBe(1);
  }, 40_000);
});
