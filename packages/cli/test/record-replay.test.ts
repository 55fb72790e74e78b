// `acp-kit record` between a real editor (the sample client) and a real agent, then
// `acp-kit replay` of that transcript against the same agent (no difference) and another
// configuration of it (a readable diff).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseTranscript } from "@acp-kit/protocol/tap";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../src/main.js";
import { cliSource, sampleAgentBin, sampleClientBin, tsxLoader } from "./paths.js";

describe("record and replay", () => {
  const dir = mkdtempSync(join(tmpdir(), "acp-kit-record-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, "session.jsonl");

  it("records an editor–agent session through the stdio proxy (the session still completes)", () => {
    const run = spawnSync(
      process.execPath,
      [
        sampleClientBin,
        "--prompt",
        "hi",
        "--yes",
        "--",
        process.execPath,
        "--import",
        tsxLoader,
        cliSource,
        "record",
        "--out",
        file,
        "--",
        process.execPath,
        sampleAgentBin,
        "--pace",
        "0",
      ],
      { cwd: dir, encoding: "utf8", timeout: 60_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    const transcript = parseTranscript(readFileSync(file, "utf8"));
    expect(transcript.header.meta).toMatchObject({ recordedBy: "acp-kit record" });
    const first = transcript.entries[0];
    expect(first).toMatchObject({ from: "client", msg: { method: "initialize" } });
    const response = transcript.entries.find((e) => e.from === "agent" && (e.msg as { id?: unknown }).id === 0);
    expect(response?.ms).toBeTypeOf("number");
    const idle = transcript.entries.find(
      (e) => (e.msg as { params?: { update?: { state?: string } } }).params?.update?.state === "idle",
    );
    expect(idle).toBeDefined();
  });

  it("replays it against the same agent: no difference; against another wording: a diff", async () => {
    let out = "";
    const io = { stdout: (t: string) => void (out += t), stderr: () => {}, cwd: dir };
    const same = await main(["replay", file, "--", process.execPath, sampleAgentBin, "--pace", "0"], io);
    process.stdout.write(`${out}\n`);
    expect(out).toContain("same: the agent's");
    expect(same).toBe(0);
    out = "";
    const other = await main(
      ["replay", file, "--", process.execPath, sampleAgentBin, "--pace", "0", "--model", "pirate"],
      io,
    );
    process.stdout.write(`${out.split("\n").slice(0, 14).join("\n")}\n`);
    expect(other).toBe(1);
    expect(out).toMatch(/^- .*agent_thought_chunk/m);
    expect(out).toMatch(/^\+ .*agent_thought_chunk/m);
  });
});
