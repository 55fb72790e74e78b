/**
 * The built `acp-sample-client` against an agent written with the official SDK's v1 API, with
 * no flag: negotiation finds version 1, the banner says so, and the permission prompt is
 * answered by `--yes` / `--no`. `--json` shows the v1 wire as it travels.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, SAMPLE_CLIENT_BIN, sdkV1AgentCommand, startProcess, stopAllProcesses } from "../src/index.js";

beforeAll(() => assertBuilt());
afterEach(() => stopAllProcesses());

async function run(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [command, commandArgs] = sdkV1AgentCommand();
  const p = startProcess(process.execPath, [SAMPLE_CLIENT_BIN, "--no-color", ...args, "--", command, ...commandArgs], {
    cwd: "/tmp",
  });
  p.child.stdin.end();
  const { code } = await p.exited;
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}

describe("acp-sample-client -- a v1 agent (official SDK, stdio)", () => {
  it("--yes: the banner names ACP v1, the edit is allowed, exit 0", async () => {
    const result = await run(["--yes", "--cwd", "/work/demo", "--prompt", "hello"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Official SDK v1 fixture agent 2.4.0 · ACP v1 · session sdk1_");
    expect(result.stdout).toContain("Mode: Ask");
    expect(result.stdout).toContain("✔ Edit README.md → Allow (automatic)");
    expect(result.stdout).toContain("+Hello, ACP!");
    expect(result.stdout).toContain("— end_turn");
  }, 30_000);

  it("--no: the edit is rejected and fails, the turn still ends end_turn", async () => {
    const result = await run(["--no", "--cwd", "/work/demo", "--prompt", "hello"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Edit README.md → Reject (automatic)");
    expect(result.stdout).toContain("Left unchanged.");
  }, 30_000);

  it("--json: the transcript is the v1 wire (prompt answered with its stop reason)", async () => {
    const result = await run(["--json", "--yes", "--cwd", "/work/demo", "--prompt", "hello"]);
    expect(result.code).toBe(0);
    const wire = result.stdout
      .split("\n")
      .filter((l) => l.length > 0)
      .map((l) => JSON.parse(l) as { id?: number; method?: string; result?: Record<string, unknown> });
    expect(wire[0]).toMatchObject({ method: "initialize", params: { protocolVersion: 2 } });
    expect(wire[1]).toMatchObject({ result: { protocolVersion: 1 } });
    const prompt = wire.find((m) => m.method === "session/prompt");
    expect(wire.at(-1)).toEqual({ jsonrpc: "2.0", id: prompt?.id, result: { stopReason: "end_turn" } });
    expect(wire.some((m) => m.method === "session/request_permission")).toBe(true);
    // Nothing of v2 reaches a v1 agent.
    expect(result.stdout).not.toContain("state_update");
    expect(result.stderr).toContain("ACP v1");
  }, 30_000);
});
