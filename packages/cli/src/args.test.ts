import { describe, expect, it } from "vitest";
import { parseArgs, UsageError } from "./args.js";

describe("acp-kit arguments", () => {
  it.each([
    [["check", "agent", "--", "node", "a.js"], { name: "check-agent", command: ["node", "a.js"] }],
    [["check", "agent", "--ws", "ws://h/acp"], { name: "check-agent", flags: { ws: "ws://h/acp" } }],
    [
      ["check", "agent", "--json", "--only", "prompt,cancel", "--timeout=500", "--", "x"],
      { flags: { json: true, only: ["prompt", "cancel"], timeoutMs: 500 } },
    ],
    [
      ["check", "client", "--ws", "--", "c", "--url", "{agent}"],
      { name: "check-client", flags: { ws: true }, command: ["c", "--url", "{agent}"] },
    ],
    [["record", "--out", "f.jsonl", "--", "agent"], { name: "record", flags: { out: "f.jsonl" }, command: ["agent"] }],
    [["replay", "f.jsonl", "--", "agent", "--flag"], { name: "replay", file: "f.jsonl", command: ["agent", "--flag"] }],
    [["inspect", "--port", "7000", "--", "agent"], { name: "inspect", flags: { port: 7000 } }],
    [["--help"], { name: "help" }],
    [[], { name: "help" }],
  ])("%j", (argv, expected) => {
    expect(parseArgs(argv)).toMatchObject(expected);
  });

  it.each([
    [["check", "agent"], "needs -- <agent command...> or --ws URL"],
    [["check", "agent", "--ws", "http://x"], "ws:// or wss://"],
    [["check", "agent", "--ws", "auto"], "--ws auto needs an agent command"],
    [["check", "client", "--", "c"], "must contain {agent}"],
    [["check", "server"], 'expected "check agent" or "check client"'],
    [["check", "agent", "--bogus", "--", "x"], "unknown option --bogus"],
    [["check", "agent", "--timeout", "-1", "--", "x"], "non-negative integer"],
    [["check", "agent", "--"], "expected a command after --"],
    [["replay", "--", "x"], "replay needs a transcript FILE"],
    [["launch"], 'unknown command "launch"'],
  ])("%j is refused: %s", (argv, message) => {
    expect(() => parseArgs(argv)).toThrow(UsageError);
    expect(() => parseArgs(argv)).toThrow(message);
  });
});

describe("acp-kit exit status", () => {
  it("is 2 for bad arguments, with the usage on stderr", async () => {
    const { main } = await import("./main.js");
    let err = "";
    const code = await main(["check", "agent"], { stdout: () => {}, stderr: (t) => void (err += t), cwd: "/" });
    expect(code).toBe(2);
    expect(err).toContain("acp-kit: check agent needs");
    expect(err).toContain("Usage:");
  });
});
