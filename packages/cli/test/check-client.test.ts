// `acp-kit check client` against real client processes: our sample client passes, over stdio
// and over WebSocket; a client that ignores the cancel rule fails with the row naming it.
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { main } from "../src/main.js";
import type { Report } from "../src/report.js";
import { rudeClientFixture, sampleClientBin, tsxLoader } from "./paths.js";

const json = async (args: string[]): Promise<Report> => {
  let out = "";
  await main(["check", "client", "--json", ...args], {
    stdout: (t) => void (out += t),
    stderr: () => {},
    cwd: tmpdir(),
  });
  return JSON.parse(out) as Report;
};

async function check(args: string[]): Promise<{ code: number; out: string }> {
  let out = "";
  const code = await main(["check", "client", ...args], {
    stdout: (t) => void (out += t),
    stderr: () => {},
    cwd: tmpdir(),
  });
  return { code, out };
}

describe("check client", () => {
  it("passes our sample client over stdio", async () => {
    const { code, out } = await check([
      "--",
      process.execPath,
      sampleClientBin,
      "--prompt",
      "hi",
      "--yes",
      "--",
      "{agent}",
    ]);
    process.stdout.write(`${out}\n`);
    expect(out).toContain("0 MANDATORY/CAPABILITY");
    expect(code).toBe(0);
  });

  it("passes our sample client over WebSocket ({agent} becomes a URL, {token} its bearer token)", async () => {
    const { code, out } = await check([
      "--ws",
      "--only",
      "basic,permission-cancel",
      "--",
      process.execPath,
      sampleClientBin,
      "--prompt",
      "hi",
      "--yes",
      "--ws",
      "{agent}",
      "--token",
      "{token}",
    ]);
    expect(out).toContain("0 MANDATORY/CAPABILITY");
    expect(out).toContain("PASS  MANDATORY   v2  client.permission-cancelled-after-cancel");
    expect(code).toBe(0);
  });

  it("fails a client that breaks its obligations, one clear row each", async () => {
    let json = "";
    const code = await main(
      [
        "check",
        "client",
        "--json",
        "--only",
        "basic,permission-cancel",
        "--",
        process.execPath,
        "--import",
        tsxLoader,
        rudeClientFixture,
        "{agent}",
      ],
      {
        stdout: (t) => void (json += t),
        stderr: () => {},
        cwd: tmpdir(),
      },
    );
    const report = JSON.parse(json) as Report;
    const failed = (id: string) =>
      report.rows.find((r) => r.id === id && r.scenario === "basic" && r.status === "fail");
    expect(code).toBe(1);
    // A client asking for 2 is served and judged in v2.
    expect(report.protocolVersion).toBe(2);
    expect(failed("client.messages-valid")).toBeUndefined();
    expect(report.rows.find((r) => r.id === "client.initialize-first")?.version).toBe(2);
    expect(failed("client.initialize-first")?.evidence[0]).toContain("session/list");
    expect(failed("client.advertised-methods")?.evidence[0]).toContain("session/delete");
    expect(failed("client.prompt-content")?.evidence[0]).toContain('block type "image" was not advertised');
    const cancelRow = report.rows.find((r) => r.id === "client.permission-cancelled-after-cancel");
    expect(cancelRow?.status).toBe("fail");
    expect(cancelRow?.evidence.join("\n")).toContain('"outcome":"selected"');
  });

  it("judges a v2 client's messages by the v2 schema", async () => {
    const report = await json([
      "--only",
      "basic",
      "--",
      process.execPath,
      "--import",
      tsxLoader,
      rudeClientFixture,
      "--bad-params",
      "{agent}",
    ]);
    const invalid = report.rows.find((r) => r.id === "client.messages-valid");
    expect(invalid).toMatchObject({ status: "fail", version: 2, title: expect.stringContaining("v2 schema") });
    expect(invalid?.evidence[0]).toMatch(/session\/new .*"cwd":42.*schema v2: \/cwd/);
  });
});
