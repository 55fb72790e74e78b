/**
 * The built `acp-sample-client` against scripted v1 agents (`@acp-kit/testkit`'s bin, real
 * processes) that behave as the agents that ship do: a config change refused with the reason in
 * `data.details` (gemini-cli), `session/new` refused for authentication (GitHub Copilot), option
 * ids that are URLs or paths, a death mid-turn, stderr full of stack traces, a command list in
 * the middle of a reply and the reply after a rejected permission (qwen-code).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AgentScript, type AgentStep, v1Chunk, v1Permission, v1Script, v1Turn } from "@acp-kit/testkit";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, REPO_ROOT, SAMPLE_CLIENT_BIN, startProcess, stopAllProcesses } from "../src/index.js";

const SCRIPTED_AGENT_BIN = join(REPO_ROOT, "packages", "testkit", "dist", "scripted-agent-bin.js");
const dir = mkdtempSync(join(tmpdir(), "cli-v1-peers-"));
let scripts = 0;

beforeAll(() => assertBuilt());
afterEach(() => stopAllProcesses());

/**
 * Runs the client against `script`, stdout and stderr in one stream (as on a terminal) so the
 * order of what it printed shows. `stderrFirst` lines are written to the agent's stderr first.
 */
async function run(
  script: AgentScript,
  args: readonly string[],
  stderrFirst: readonly string[] = [],
  input = "",
): Promise<{ code: number | null; output: string }> {
  const file = join(dir, `script-${++scripts}.json`);
  writeFileSync(file, JSON.stringify(script));
  const agent = `${stderrFirst.map((l) => `echo '${l}' >&2; `).join("")}exec '${process.execPath}' '${SCRIPTED_AGENT_BIN}' '${file}'`;
  const quoted = args.map((a) => `'${a}'`).join(" ");
  const p = startProcess("sh", [
    "-c",
    `exec '${process.execPath}' '${SAMPLE_CLIENT_BIN}' --no-color ${quoted} -- sh -c "${agent}" 2>&1`,
  ]);
  p.child.stdin.end(input);
  const { code } = await p.exited;
  return { code, output: p.stdout() };
}

const turnWith = (steps: AgentStep[]) => v1Script({ prompts: [v1Turn(steps)] });

describe("acp-sample-client -- v1 agents as they ship", () => {
  it("a refused config change names the step and prints the error's data.details (gemini-cli)", async () => {
    const script = v1Script({
      prompts: [],
      newSession: {
        modes: {
          currentModeId: "default",
          availableModes: [
            { id: "default", name: "Default" },
            { id: "yolo", name: "YOLO" },
          ],
        },
      },
      errors: {
        "session/set_mode": {
          code: -32603,
          message: "Internal error",
          data: { details: "Cannot enable privileged approval modes in an untrusted folder" },
        },
      },
    });
    const { code, output } = await run(script, ["--config", "mode=yolo", "--prompt", "hi"]);
    expect(code).toBe(1);
    expect(output).toContain(
      "✘ set config mode failed: Internal error (-32603): Cannot enable privileged approval modes in an untrusted folder",
    );
  }, 30_000);

  it("an auth refusal lists the auth methods the agent advertised, and how to run them (Copilot)", async () => {
    const script = v1Script({
      prompts: [],
      initialize: {
        authMethods: [
          {
            id: "copilot-login",
            name: "Log in with GitHub",
            description: "Run `copilot login` in a terminal",
            _meta: { "terminal-auth": { command: "copilot", args: ["login"], label: "Log in" } },
          },
          { id: "token", name: "Use a token", description: "Set GH_TOKEN" },
        ],
      },
      errors: { "session/new": { code: -32000, message: "Authentication required" } },
    });
    const { code, output } = await run(script, ["--prompt", "hi"]);
    expect(code).toBe(1);
    expect(output).toContain("✘ session/new failed: Authentication required (-32000)");
    expect(output).toContain("The agent asks to authenticate. It offers:");
    expect(output).toContain("• Log in with GitHub — Run `copilot login` in a terminal");
    expect(output).toContain("run in a terminal: copilot login");
    expect(output).toContain("• Use a token — Set GH_TOKEN");
  }, 30_000);

  it("the header names the options' values, not their ids", async () => {
    const script = v1Script({
      prompts: [v1Turn([v1Chunk("ok")])],
      newSession: {
        modes: {
          currentModeId: "https://agentclientprotocol.com/protocol/session-modes#agent",
          availableModes: [{ id: "https://agentclientprotocol.com/protocol/session-modes#agent", name: "Agent" }],
        },
        configOptions: [
          {
            id: "model",
            name: "Model",
            type: "select",
            currentValue: "$runtime|openai|mock-model(openai)",
            options: [{ value: "$runtime|openai|mock-model(openai)", name: "mock-model" }],
          },
        ],
      },
    });
    const { code, output } = await run(script, ["--prompt", "hi"]);
    expect(code).toBe(0);
    expect(output).toContain("Model: mock-model · Mode: Agent");
    expect(output).not.toContain("session-modes#agent");
  }, 30_000);

  it("an agent dying mid-turn leaves the streamed text on screen, the failure below it, its stderr tail above", async () => {
    const script = turnWith([v1Chunk("Partial answer "), v1Chunk("so far."), { die: true }]);
    const { code, output } = await run(script, ["--prompt", "hi"], ["Error: retrying", "    at model.ts:1"]);
    expect(code).toBe(1);
    const text = output.indexOf("Partial answer so far.");
    const tail = output.indexOf("agent │ Error: retrying");
    const failure = output.indexOf("✘ prompt failed:");
    expect(text, output).toBeGreaterThanOrEqual(0);
    expect(tail, output).toBeGreaterThan(text);
    expect(failure, output).toBeGreaterThan(tail);
  }, 30_000);

  it("in the REPL too, the text streamed before the agent died stays, the failure below it", async () => {
    const script = turnWith([v1Chunk("Partial answer "), v1Chunk("so far."), { die: true }]);
    const { code, output } = await run(script, [], [], "hi\n");
    expect(code).toBe(1);
    const text = output.indexOf("Partial answer so far.");
    expect(text, output).toBeGreaterThanOrEqual(0);
    expect(output.indexOf('Prompt "hi" failed:'), output).toBeGreaterThan(text);
  }, 30_000);

  it("agent stderr stays out of a good turn, and shows as it comes with --verbose", async () => {
    const script = turnWith([v1Chunk("fine")]);
    const quiet = await run(script, ["--prompt", "hi"], ["noise from the agent"]);
    expect(quiet.code).toBe(0);
    expect(quiet.output).toContain("fine");
    expect(quiet.output).not.toContain("noise from the agent");
    const verbose = await run(script, ["--verbose", "--prompt", "hi"], ["noise from the agent"]);
    expect(verbose.output).toContain("agent │ noise from the agent");
  }, 30_000);

  it("a command list in the middle of a reply leaves one line (qwen-code)", async () => {
    const script = turnWith([
      v1Chunk("Hello from "),
      {
        update: { sessionUpdate: "available_commands_update", availableCommands: [{ name: "init", description: "x" }] },
      },
      v1Chunk("the mock model."),
    ]);
    const { code, output } = await run(script, ["--prompt", "hi"]);
    expect(code).toBe(0);
    expect(output).toContain("Hello from the mock model.");
  }, 30_000);

  it("the reply after a rejected permission is printed, after the request (qwen-code)", async () => {
    const script = turnWith([
      v1Chunk(""),
      v1Permission("t1", "Edit greeting.ts"),
      v1Chunk("The tool ran. "),
      v1Chunk("Done."),
      { update: { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "failed" } },
    ]);
    const { code, output } = await run(script, ["--no", "--prompt", "hi"]);
    expect(code).toBe(0);
    const rejected = output.indexOf("✘ Edit greeting.ts → Reject (automatic)");
    const reply = output.indexOf("The tool ran. Done.");
    expect(rejected, output).toBeGreaterThanOrEqual(0);
    expect(reply, output).toBeGreaterThan(rejected);
  }, 30_000);
});
