// `acp-kit check agent` against real agent processes: our sample agent and an agent on the
// official SDK's v2 API pass; three broken agents each fail with the row naming their fault.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AgentScript, agentText, v2Turn } from "@acp-kit/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../src/main.js";
import type { Report } from "../src/report.js";
import { sampleAgentBin, scriptedAgentBin, sdkAgentFixture } from "./paths.js";

async function check(args: string[]): Promise<{ code: number; report: Report; text: string }> {
  let out = "";
  const io = { stdout: (t: string) => void (out += t), stderr: () => {}, cwd: tmpdir() };
  const code = await main(["check", "agent", "--json", ...args], io);
  const report = JSON.parse(out) as Report;
  let text = "";
  await main(["check", "agent", ...args], { ...io, stdout: (t) => void (text += t) });
  return { code, report, text };
}

const row = (report: Report, id: string) => report.rows.find((r) => r.id === id);
const blocking = (report: Report) =>
  report.rows.filter((r) => r.status === "fail" && (r.tier === "MANDATORY" || r.tier === "CAPABILITY"));

describe("check agent", () => {
  it("passes our sample agent with no MANDATORY/CAPABILITY failure, exit 0", async () => {
    let out = "";
    const code = await main(["check", "agent", "--", process.execPath, sampleAgentBin, "--pace", "0"], {
      stdout: (t) => void (out += t),
      stderr: () => {},
      cwd: tmpdir(),
    });
    process.stdout.write(`${out}\n`);
    expect(out).toContain("0 MANDATORY/CAPABILITY");
    expect(out).not.toMatch(/^FAIL/m);
    expect(code).toBe(0);
  });

  it("checks an agent that serves WebSocket (--ws auto reads the URL it prints)", async () => {
    const { code, report } = await check([
      "--ws",
      "auto",
      "--only",
      "prompt",
      "--",
      process.execPath,
      sampleAgentBin,
      "--pace",
      "0",
      "--ws",
      "127.0.0.1:0",
    ]);
    expect(report.target).toContain("(--ws auto)");
    expect(row(report, "prompt.echo-message-id")?.status).toBe("pass");
    expect(blocking(report)).toEqual([]);
    expect(code).toBe(0);
  });

  it("runs an agent written on the official SDK's v2 API", async () => {
    const { report, text } = await check(["--", process.execPath, "--import", "tsx", sdkAgentFixture]);
    process.stdout.write(`${text}\n`);
    expect(report.peer).toMatchObject({ name: "sdk-fixture-agent" });
    expect(report.protocolVersion).toBe(2);
    expect(row(report, "prompt.idle")?.version).toBe(2);
    // The rows of v1 only are skipped for a v2 agent, naming v1.
    expect(row(report, "prompt.response-stop-reason")).toMatchObject({ status: "skip", version: 1 });
    expect(row(report, "session.load")).toMatchObject({ status: "skip", version: 1 });
    for (const id of [
      "prompt.response-message-id",
      "prompt.echo-message-id",
      "prompt.idle",
      "prompt.stop-reason",
      "cancel.stop-reason-cancelled",
    ])
      expect(row(report, id)?.status, id).toBe("pass");
    expect(row(report, "permission.options")?.status).toBe("pass");
    expect(report.rows.length).toBeGreaterThan(30);
  });

  describe("fails broken agents with a clear row", () => {
    const dir = mkdtempSync(join(tmpdir(), "acp-kit-broken-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const scriptFile = (name: string, script: AgentScript) => {
      const file = join(dir, `${name}.json`);
      writeFileSync(file, JSON.stringify(script));
      return file;
    };
    const run = (file: string) =>
      check(["--only", "prompt", "--timeout", "3000", "--", process.execPath, scriptedAgentBin, file]);

    it("v1-style prompt response: stop reason in the response, no echo, no state updates", async () => {
      const file = scriptFile("v1", {
        prompts: [[...agentText("Hello from v1"), { respond: { stopReason: "end_turn" } }]],
      });
      const { code, report, text } = await run(file);
      process.stdout.write(`${text}\n`);
      expect(code).toBe(1);
      const response = row(report, "prompt.response-message-id");
      expect(response).toMatchObject({ tier: "MANDATORY", status: "fail" });
      expect(response?.evidence.join("\n")).toContain("answered v1-style");
      expect(row(report, "prompt.echo-message-id")?.status).toBe("fail");
      expect(row(report, "prompt.running")?.status).toBe("fail");
      expect(row(report, "prompt.idle")?.status).toBe("fail");
    });

    it("an echo carrying a different messageId than the response", async () => {
      const steps = v2Turn(agentText("Hi"));
      steps[1] = { update: { sessionUpdate: "user_message", messageId: "msg_somewhere_else", content: "$prompt" } };
      const { code, report, text } = await run(scriptFile("echo", { prompts: [steps] }));
      process.stdout.write(`${text}\n`);
      expect(code).toBe(1);
      const echo = row(report, "prompt.echo-message-id");
      expect(echo).toMatchObject({ tier: "MANDATORY", status: "fail" });
      expect(echo?.evidence[0]).toBe('echo messageId "msg_somewhere_else" differs from the response\'s "msg_user_1"');
      expect(blocking(report).map((r) => r.id)).toEqual(["prompt.echo-message-id", "prompt.second.echo-message-id"]);
    });

    it("turns ending with an undefined stop reason", async () => {
      const { code, report, text } = await run(scriptFile("no-stop", { prompts: [v2Turn(agentText("Hi"), null)] }));
      process.stdout.write(`${text}\n`);
      expect(code).toBe(1);
      const stop = row(report, "prompt.stop-reason");
      expect(stop).toMatchObject({ tier: "MANDATORY", status: "fail" });
      expect(stop?.evidence.join("\n")).toContain("stopReason is undefined");
      expect(blocking(report).map((r) => r.id)).toEqual(["prompt.stop-reason", "prompt.second.stop-reason"]);
    });
  });
});

describe("check agent: scripted v2 agents, one fault each", () => {
  const dir = mkdtempSync(join(tmpdir(), "acp-kit-v2-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const v2Initialize = (session: Record<string, unknown> | undefined = {}) => ({
    protocolVersion: 2,
    info: { name: "scripted-v2", version: "1.0.0" },
    capabilities: session === undefined ? {} : { session },
  });
  const run = async (name: string, script: AgentScript, only: string) => {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(script));
    const { report } = await check([
      "--only",
      only,
      "--timeout",
      "1500",
      "--",
      process.execPath,
      scriptedAgentBin,
      file,
    ]);
    return report;
  };

  it.each<[string, AgentScript, string, string, RegExp]>([
    [
      "info without a version",
      { initialize: { ...v2Initialize(), info: { name: "x" } }, prompts: [v2Turn()] },
      "initialize",
      "initialize.result-valid",
      /schema v2: \/info/,
    ],
    [
      "the session capability without session/list",
      { initialize: v2Initialize(), prompts: [v2Turn()] },
      "initialize",
      "session.list",
      /"code":-32601/,
    ],
    [
      "an image prompt accepted without the image capability",
      { initialize: v2Initialize(undefined), prompts: [v2Turn()] },
      "initialize",
      "prompt.unadvertised-content",
      /response \(id \d+\) \{"messageId":"msg_user_1"\}/,
    ],
    [
      "a permission request in the v1 shape",
      {
        initialize: v2Initialize(),
        prompts: [
          v2Turn([
            {
              request: "session/request_permission",
              params: {
                sessionId: "$sessionId",
                toolCall: { toolCallId: "c1" },
                options: [{ optionId: "ok", name: "OK", kind: "allow_once" }],
              },
            },
          ]),
        ],
      },
      "permission",
      "permission.options",
      /schema v2: /,
    ],
  ])("%s fails the row naming it", async (name, script, only, failing, evidence) => {
    const report = await run(name.replaceAll(/\W+/g, "-"), script, only);
    expect(report.protocolVersion).toBe(2);
    const failed = row(report, failing);
    expect(failed).toMatchObject({ status: "fail", version: 2 });
    expect(failed?.evidence.join("\n")).toMatch(evidence);
  });
});
