import { describe, expect, it } from "vitest";
import { describeAnswer, describeError, keepStderrLine, STDERR_TAIL_LINES, stderrExcerpt } from "./evidence.js";

describe("stderrExcerpt", () => {
  const trace = ["Error: session/new failed", "    at newSession (agent.js:10:5)", "    at main (agent.js:40:1)"];
  const dump = ["{", '  "error": {', '    "code": 401,', '    "message": "API key not valid"', "  }", "}"];

  it.each<[string, string[], string[]]>([
    [
      "a stack trace after log lines: the whole trace",
      ["starting", "ready", ...trace],
      ["starting", "ready", ...trace],
    ],
    ["a pretty-printed JSON dump stays together", ["line", ...dump], ["line", ...dump]],
    [
      "node's crash report: every block of it",
      ["/x/agent.js:10", "    throw err;", "    ^", "", ...trace, "", "Node.js v20.19.0"],
      ["/x/agent.js:10", "    throw err;", "    ^", ...trace, "Node.js v20.19.0"],
    ],
  ])("%s", (_name, lines, expected) => {
    expect(stderrExcerpt(lines)).toEqual(expected);
  });

  it("takes whole blocks from the end while they fit, never half a block", () => {
    const lines = ["old 1", "    detail", "    detail", ...dump];
    expect(stderrExcerpt(lines, 8)).toEqual(dump);
    expect(stderrExcerpt(lines, 9)).toEqual(lines);
  });

  it("a last block longer than the bound keeps its end", () => {
    const long = ["Error: x", ...Array.from({ length: 100 }, (_, i) => `    at f${i}`)];
    expect(stderrExcerpt(long, 10)).toEqual(long.slice(-10));
  });

  it("the tail it reads is bounded in lines and line length", () => {
    const tail: string[] = [];
    for (let i = 0; i < STDERR_TAIL_LINES + 50; i++) keepStderrLine(tail, "y".repeat(10_000));
    expect(tail.length).toBe(STDERR_TAIL_LINES);
    expect(Math.max(...tail.map((l) => l.length))).toBeLessThanOrEqual(1_000);
  });
});

describe("errors as evidence", () => {
  it("keep the peer's code, message and data", () => {
    const data = { missing: "mcpServers", path: "/mcpServers" };
    expect(describeError({ code: -32603, message: "Internal error", data })).toBe(
      'error {"code":-32603,"message":"Internal error","data":{"missing":"mcpServers","path":"/mcpServers"}}',
    );
    const entry = {
      seq: 4,
      from: "agent" as const,
      time: 0,
      payload: "",
      message: {
        jsonrpc: "2.0",
        id: 1,
        error: { code: -32603, message: "Internal error", data: { detail: "x".repeat(300) } },
      },
    };
    // An error response is not cut at 200 characters like other evidence.
    expect(describeAnswer(entry)).toContain(`"detail":"${"x".repeat(300)}"`);
    expect(describeError(new Error("no answer"))).toBe("no answer");
  });
});
