// `acp-kit check agent` against v1 agents: the checker asks for 2, accepts 1 and judges every
// scenario by v1's rules and schema. A correct agent on the official SDK's v1 API is conformant;
// each seeded defect (in the SDK agent, or in a scripted v1 agent) fails the row naming it; an
// agent that needs authentication gets one clear row and its turns are skipped.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentScript, AgentStep } from "@acp-kit/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../src/main.js";
import type { Report } from "../src/report.js";
import { scriptedAgentBin, sdkV1AgentFixture, tsxLoader } from "./paths.js";

async function check(args: string[]): Promise<{ code: number; report: Report }> {
  let out = "";
  const io = { stdout: (t: string) => void (out += t), stderr: () => {}, cwd: tmpdir() };
  const code = await main(["check", "agent", "--json", "--timeout", "5000", ...args], io);
  return { code, report: JSON.parse(out) as Report };
}

const row = (report: Report, id: string) => report.rows.find((r) => r.id === id);
const blocking = (report: Report) =>
  report.rows
    .filter((r) => r.status === "fail" && (r.tier === "MANDATORY" || r.tier === "CAPABILITY"))
    .map((r) => r.id);
// Each run keeps its sessions in a store of its own, so that a fresh process of the agent loads them.
const stores = mkdtempSync(join(tmpdir(), "acp-kit-v1-store-"));
afterAll(() => rmSync(stores, { recursive: true, force: true }));
const sdkAgent = (...args: string[]) => [
  "--",
  process.execPath,
  "--import",
  tsxLoader,
  sdkV1AgentFixture,
  "--store",
  mkdtempSync(join(stores, "run-")),
  ...args,
];

describe("check agent: a correct v1 agent on the official SDK", () => {
  it("negotiates 1, judges every row by v1 and comes out conformant", async () => {
    const { code, report } = await check(sdkAgent());
    expect(report.protocolVersion).toBe(1);
    expect(report.peer).toEqual({ name: "sdk-v1-checked-agent", version: "1.0.0" });
    expect(blocking(report)).toEqual([]);
    expect(code).toBe(0);
    for (const id of [
      "initialize.result-valid",
      "initialize.info",
      "session.new",
      "session.list",
      "session.resume",
      "session.load",
      "session.load-replay",
      "session.close",
      "prompt.response-stop-reason",
      "prompt.updates-valid",
      "prompt.second.response-stop-reason",
      "cancel.stop-reason-cancelled",
      "permission.options",
      "permission.response-stop-reason",
      "permission-cancel.stop-reason-cancelled",
    ])
      expect(row(report, id), id).toMatchObject({ status: "pass", version: 1 });
    // The rows of v2 only are skipped, naming v2 and why, never failed.
    for (const id of [
      "prompt.response-message-id",
      "prompt.idle",
      "session.resume-snapshot",
      "permission.requires-action",
    ])
      expect(row(report, id), id).toMatchObject({
        status: "skip",
        version: 2,
        evidence: [expect.stringMatching(/^v2 only: /)],
      });
    expect(row(report, "prompt.unadvertised-content")).toMatchObject({ status: "skip", version: 2 });
  });
});

describe("check agent: seeded defects in the SDK v1 agent", () => {
  it.each<[string, string[], string[]]>([
    ["bad-stop-reason", ["prompt"], ["prompt.response-stop-reason", "prompt.second.response-stop-reason"]],
    ["ignore-cancel", ["cancel"], ["cancel.stop-reason-cancelled"]],
    ["cancel-error", ["cancel"], ["cancel.response-stop-reason", "cancel.stop-reason-cancelled"]],
    ["load-fails", ["resume"], ["session.load"]],
    ["v2-update", ["prompt"], ["prompt.updates-valid", "prompt.second.updates-valid"]],
  ])("%s fails %j with %j", async (defect, only, failing) => {
    const { code, report } = await check(["--only", only.join(","), ...sdkAgent("--defect", defect)]);
    expect(blocking(report)).toEqual(failing);
    expect(code).toBe(1);
  });

  it("keeps the agent's error as sent: code, message and data", async () => {
    const { report } = await check(["--only", "resume", ...sdkAgent("--defect", "load-fails")]);
    expect(row(report, "session.load")?.evidence[0]).toMatch(
      /error response \(id \d+\) \{"code":-32002,"message":"Resource not found: v1_[^"]+","data":\{"uri":"v1_[^"]+"\}\}$/,
    );
  });

  it("a load without the replay fails the advisory replay row only", async () => {
    const { code, report } = await check(["--only", "resume", ...sdkAgent("--defect", "load-no-replay")]);
    expect(row(report, "session.load")?.status).toBe("pass");
    expect(row(report, "session.load-replay")).toMatchObject({
      status: "fail",
      tier: "ADVISORY",
      evidence: [expect.stringMatching(/^no user_message_chunk/), expect.stringMatching(/^no agent_message_chunk/)],
    });
    expect(code).toBe(0);
  });

  it("an agent that needs authentication: one clear row, the turns skipped with that reason", async () => {
    const { code, report } = await check(sdkAgent("--defect", "auth"));
    const auth = row(report, "session.requires-auth");
    expect(auth).toMatchObject({
      status: "skip",
      version: 1,
      title: "requires authentication: methods browser-login (Log in with a browser), api-key (Use an API key)",
    });
    expect(auth?.evidence[1]).toContain('"code":-32000');
    for (const scenario of ["prompt", "cancel", "permission", "permission-cancel"])
      expect(report.rows.filter((r) => r.scenario === scenario)).toEqual([
        expect.objectContaining({ id: `${scenario}.requires-auth`, status: "skip", title: auth?.title }),
      ]);
    expect(report.rows.find((r) => r.status === "fail")).toBeUndefined();
    expect(code).toBe(0);
  });
});

describe("check agent: scripted v1 agents, one fault each", () => {
  const dir = mkdtempSync(join(tmpdir(), "acp-kit-v1-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const v1Initialize = (extra: Record<string, unknown> = {}) => ({
    protocolVersion: 1,
    agentInfo: { name: "scripted-v1", version: "1.0.0" },
    agentCapabilities: { loadSession: false, ...extra },
    authMethods: [],
  });
  const chunk = (text: string): AgentStep => ({
    update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } },
  });
  const ended: AgentStep = { respond: { stopReason: "end_turn" } };
  const commands = (): AgentStep => ({
    update: { sessionUpdate: "available_commands_update", availableCommands: [] },
  });
  const run = async (name: string, script: AgentScript, only: string) => {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(script));
    return check(["--only", only, "--timeout", "1500", "--", process.execPath, scriptedAgentBin, file]);
  };

  it("a correct scripted v1 turn passes the v1 turn rows", async () => {
    const { report } = await run("ok", { initialize: v1Initialize(), prompts: [[chunk("Hi"), ended]] }, "prompt");
    expect(report.protocolVersion).toBe(1);
    expect(blocking(report)).toEqual([]);
    expect(row(report, "prompt.nothing-after-response")?.status).toBe("pass");
  });

  it.each<[string, AgentScript, string, string, RegExp]>([
    [
      "no stop reason",
      { initialize: v1Initialize(), prompts: [[chunk("Hi"), { respond: {} }]] },
      "prompt",
      "prompt.response-stop-reason",
      /the response has no stopReason/,
    ],
    [
      "a v2 answer to a v1 prompt",
      { initialize: v1Initialize(), prompts: [[chunk("Hi"), { respond: { messageId: "$messageId" } }]] },
      "prompt",
      "prompt.response-stop-reason",
      /no stopReason/,
    ],
    [
      "a prompt never answered",
      { initialize: v1Initialize(), prompts: [[chunk("Hi"), { waitFor: "session/cancel", timeoutMs: 60_000 }]] },
      "prompt",
      "prompt.response-stop-reason",
      /no answer to .* within 1500 ms/,
    ],
    [
      "an update after the response",
      { initialize: v1Initialize(), prompts: [[ended, chunk("late")]] },
      "prompt",
      "prompt.nothing-after-response",
      /agent_message_chunk .*late/,
    ],
    [
      "agentInfo without a version",
      { initialize: { ...v1Initialize(), agentInfo: { name: "x" } }, prompts: [[ended]] },
      "initialize",
      "initialize.result-valid",
      /schema v1: \/agentInfo/,
    ],
    [
      "sessionCapabilities.list advertised, session/list unknown",
      { initialize: v1Initialize({ sessionCapabilities: { list: {} } }), prompts: [[ended]] },
      "initialize",
      "session.list",
      /"code":-32601/,
    ],
    [
      "a permission request in the v2 shape",
      {
        initialize: v1Initialize(),
        prompts: [
          [
            {
              request: "session/request_permission",
              params: {
                sessionId: "$sessionId",
                title: "Edit?",
                options: [{ optionId: "ok", name: "OK", kind: "allow_once" }],
              },
            },
            ended,
          ],
        ],
      },
      "permission",
      "permission.options",
      /schema v1: .*toolCall/,
    ],
    [
      "an unknown method answered with a result",
      { initialize: v1Initialize(), prompts: [[ended]], answers: { "_acp_kit/no_such_method": {} } },
      "initialize",
      "jsonrpc.method-not-found",
      /response \(id 1\) \{\}/,
    ],
    [
      "sessionCapabilities.resume advertised, session/resume unknown",
      { initialize: v1Initialize({ sessionCapabilities: { resume: {} } }), prompts: [[ended]] },
      "resume",
      "session.resume",
      /"code":-32601/,
    ],
    [
      "sessionCapabilities.close advertised, session/close unknown",
      { initialize: v1Initialize({ sessionCapabilities: { close: {} } }), prompts: [[ended]] },
      "initialize",
      "session.close",
      /"code":-32601/,
    ],
    [
      "a deleted session still listed",
      {
        initialize: v1Initialize({ sessionCapabilities: { list: {}, delete: {} } }),
        prompts: [[ended]],
        answers: { "session/list": { sessions: [{ sessionId: "sess_2", cwd: "/" }] }, "session/delete": {} },
      },
      "initialize",
      "session.delete",
      /sess_2 is still listed/,
    ],
  ])("%s fails the row naming it", async (name, script, only, failing, evidence) => {
    const { report } = await run(name.replaceAll(/\W+/g, "-"), script, only);
    const failed = row(report, failing);
    const tier = failed?.tier;
    expect(failed).toMatchObject({ status: "fail", version: 1 });
    expect(failed?.evidence.join("\n")).toMatch(evidence);
    if (tier === "MANDATORY" || tier === "CAPABILITY") expect(blocking(report)).toContain(failing);
  });

  it("the cancel waits for the turn's own work, not for an update the session sends by itself", async () => {
    const slow: AgentStep[] = [
      commands(),
      { sleep: 300 },
      chunk("working"),
      { waitFor: "session/cancel", timeoutMs: 10_000 },
      { respond: { stopReason: "cancelled" } },
    ];
    const { report } = await run("cancel-after-work", { initialize: v1Initialize(), prompts: [slow] }, "cancel");
    const sent = row(report, "cancel.sent");
    expect(sent?.evidence[0]).toMatch(/^after #(\d+) agent→client session\/update agent_message_chunk .*working/);
    const workSeq = Number(/^after #(\d+)/.exec(sent?.evidence[0] ?? "")?.[1]);
    const cancelSeq = Number(/^#(\d+) client→agent session\/cancel/.exec(sent?.evidence[1] ?? "")?.[1]);
    expect(cancelSeq).toBeGreaterThan(workSeq);
    expect(row(report, "cancel.stop-reason-cancelled")?.status).toBe("pass");
  });

  // More than the 10 s the cancel rows once allowed, within the --timeout given.
  const settlesSlowly: AgentStep[] = [
    { waitFor: "session/cancel", timeoutMs: 20_000 },
    { sleep: 10_500 },
    { respond: { stopReason: "cancelled" } },
  ];
  it.each<[string, AgentStep[]]>([
    ["cancel", [chunk("working"), ...settlesSlowly]],
    [
      "permission-cancel",
      [
        { update: { sessionUpdate: "tool_call", toolCallId: "call_1", title: "Edit", status: "pending" } },
        {
          request: "session/request_permission",
          wait: false,
          params: {
            sessionId: "$sessionId",
            toolCall: { toolCallId: "call_1" },
            options: [{ optionId: "ok", name: "OK", kind: "allow_once" }],
          },
        },
        ...settlesSlowly,
      ],
    ],
  ])(
    "%s: a turn that takes 10.5 s to settle after the cancel passes with --timeout 14000",
    async (scenario, steps) => {
      const file = join(dir, `slow-${scenario}.json`);
      writeFileSync(file, JSON.stringify({ initialize: v1Initialize(), prompts: [steps] }));
      const { report } = await check([
        "--only",
        scenario,
        "--timeout",
        "14000",
        "--",
        process.execPath,
        scriptedAgentBin,
        file,
      ]);
      expect(row(report, `${scenario}.stop-reason-cancelled`)).toMatchObject({ status: "pass", version: 1 });
      expect(blocking(report)).toEqual([]);
    },
    30_000,
  );

  it("an agent that takes a moment to start: the turn's end is not mistaken for work, the skip says so", async () => {
    const { report } = await run(
      "ends-slowly",
      { initialize: v1Initialize(), prompts: [[commands(), { sleep: 200 }, ended]] },
      "cancel",
    );
    expect(row(report, "cancel.idle-cancelled")?.status).toBe("skip");
    expect(row(report, "cancel.sent")).toBeUndefined();
  });

  it("a long prompt that ends before the cancel: the cancel rows are skipped, saying so", async () => {
    const { report } = await run(
      "early",
      { initialize: v1Initialize(), prompts: [[chunk("done already"), ended]] },
      "cancel",
    );
    expect(row(report, "cancel.idle-cancelled")).toMatchObject({
      status: "skip",
      version: 1,
      evidence: [
        expect.stringMatching(/ended before it could be cancelled .*"stopReason":"end_turn".*use --long-prompt/),
      ],
    });
  });

  it("a version the checker cannot speak fails initialize.protocol-version and stops", async () => {
    const { report } = await run("v7", { initialize: { protocolVersion: 7 }, prompts: [[ended]] }, "initialize");
    expect(row(report, "initialize.protocol-version")).toMatchObject({
      status: "fail",
      evidence: ["protocolVersion: 7"],
    });
    expect(report.rows.map((r) => r.id)).toEqual(["initialize.answers", "initialize.protocol-version"]);
  });
});
