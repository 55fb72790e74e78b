// `acp-kit check client` against a v1 client on the official SDK's v1 API, which takes the agent
// command as one string (`--agent={agent}`): the scripted agent answers its initialize with 1,
// plays v1 scripts and judges it by v1's schema; it is conformant, and each seeded defect fails
// the row naming it. The v2-only scenarios are skipped saying so.
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { main } from "../src/main.js";
import type { Report } from "../src/report.js";
import { sdkV1ClientFixture, tsxLoader } from "./paths.js";

async function check(args: string[]): Promise<{ code: number; report: Report }> {
  let out = "";
  const code = await main(["check", "client", "--json", ...args], {
    stdout: (t) => void (out += t),
    stderr: () => {},
    cwd: tmpdir(),
  });
  return { code, report: JSON.parse(out) as Report };
}

const client = (...args: string[]) => [
  "--",
  process.execPath,
  "--import",
  tsxLoader,
  sdkV1ClientFixture,
  "--agent={agent}",
  ...args,
];
const blocking = (report: Report) =>
  report.rows.filter((r) => r.status === "fail" && (r.tier === "MANDATORY" || r.tier === "CAPABILITY"));

describe("check client: a v1 client on the official SDK", () => {
  it("negotiates 1 and comes out conformant; v2-only scenarios are skipped, naming v2", async () => {
    const { code, report } = await check(client());
    expect(report.protocolVersion).toBe(1);
    expect(report.peer).toEqual({ name: "sdk-v1-checked-client", version: "1.0.0" });
    expect(blocking(report)).toEqual([]);
    expect(code).toBe(0);
    const basic = report.rows.filter((r) => r.scenario === "basic");
    expect(basic.map((r) => [r.id, r.status, r.version])).toEqual([
      ["client.initialize-first", "pass", 1],
      ["client.advertised-methods", "pass", 1],
      ["client.prompt-content", "pass", 1],
      ["client.messages-valid", "pass", 1],
      ["client.completes-turn", "pass", 1],
    ]);
    expect(basic.find((r) => r.id === "client.messages-valid")?.title).toContain("v1 schema");
    for (const id of ["client.tolerates-idle-before-response", "client.tolerates-response-first"])
      expect(report.rows.find((r) => r.id === id)).toMatchObject({ status: "skip", version: 2 });
    for (const id of [
      "client.tolerates-unknown-variants",
      "client.permission-cancelled-after-cancel",
      "client.completes-cancel",
    ])
      expect(
        report.rows.find((r) => r.id === id),
        id,
      ).toMatchObject({ status: "pass", version: 1 });
  });

  it.each<[string, string, string, RegExp]>([
    ["approve-after-cancel", "permission-cancel", "client.permission-cancelled-after-cancel", /"outcome":"selected"/],
    ["image", "basic", "client.prompt-content", /block type "image" was not advertised/],
    ["unadvertised", "basic", "client.advertised-methods", /session\/load/],
    ["exit-early", "basic", "client.completes-turn", /went away before the turn reached its prompt response/],
    ["new-first", "basic", "client.initialize-first", /client→agent session\/new/],
    ["strict-meta", "unknown-variants", "client.tolerates-unknown-variants", /the client exited with 3/],
    ["fail-on-cancelled", "permission-cancel", "client.completes-cancel", /the client exited with 1/],
    [
      "no-mcp-servers",
      "basic",
      "client.messages-valid",
      /session\/new .*schema v1: \/mcpServers required property is missing/,
    ],
  ])("%s fails %s with %s", async (defect, scenario, failing, evidence) => {
    const { code, report } = await check(["--only", scenario, ...client("--defect", defect)]);
    expect(blocking(report).map((r) => r.id)).toEqual([failing]);
    expect(blocking(report)[0]?.evidence.join("\n")).toMatch(evidence);
    expect(code).toBe(1);
  });
});
