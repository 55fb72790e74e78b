import { describe, expect, it } from "vitest";
import { parseClientArgs } from "./cli-args.js";

describe("acp-sample-client arguments", () => {
  it("takes the agent command after --, keeping its own flags", () => {
    expect(parseClientArgs(["--yes", "--prompt", "hi", "--", "node", "agent.js", "--prompt", "x"])).toMatchObject({
      agentCommand: { command: "node", args: ["agent.js", "--prompt", "x"] },
      prompt: "hi",
      permissions: "allow",
      json: false,
    });
  });
  it("parses --ws, --token, --json, --no, repeated --config and --cwd", () => {
    expect(
      parseClientArgs([
        "--ws",
        "ws://127.0.0.1:9/acp",
        "--token=t",
        "--json",
        "--no",
        "--config",
        "mode=auto",
        "--config=model=pirate",
        "--cwd",
        "/w",
      ]),
    ).toMatchObject({
      wsUrl: "ws://127.0.0.1:9/acp",
      token: "t",
      json: true,
      permissions: "reject",
      config: [
        { configId: "mode", value: "auto" },
        { configId: "model", value: "pirate" },
      ],
      cwd: "/w",
    });
    expect(parseClientArgs(["--resume", "sess_1", "--", "a"]).resume).toBe("sess_1");
    expect(parseClientArgs(["--resume-policy", "required", "--", "a"]).resumePolicy).toBe("required");
  });
  it("refuses contradictory or incomplete arguments", () => {
    expect(() => parseClientArgs([])).toThrow("missing agent");
    expect(() => parseClientArgs(["--"])).toThrow("agent command after --");
    expect(() => parseClientArgs(["--yes", "--no", "--", "a"])).toThrow("exclude each other");
    expect(() => parseClientArgs(["--ws", "http://x"])).toThrow("ws:// or wss://");
    expect(() => parseClientArgs(["--ws", "ws://x", "--", "a"])).toThrow("give one of");
    expect(() => parseClientArgs(["--ws", "ws://x", "--http", "http://x"])).toThrow("give one of");
    expect(() => parseClientArgs(["--http", "ws://x"])).toThrow("http:// or https://");
    expect(parseClientArgs(["--http", "http://127.0.0.1:9/acp", "--token", "t"])).toMatchObject({
      httpUrl: "http://127.0.0.1:9/acp",
      token: "t",
    });
    expect(() => parseClientArgs(["--token", "t", "--", "a"])).toThrow("only applies with --ws");
    expect(() => parseClientArgs(["--config", "novalue", "--", "a"])).toThrow("ID=VALUE");
    expect(() => parseClientArgs(["--prompt", " ", "--", "a"])).toThrow("must not be empty");
    expect(() => parseClientArgs(["--resume-policy", "maybe", "--", "a"])).toThrow("auto, required or off");
    expect(() => parseClientArgs(["agent"])).toThrow('Unknown argument "agent"');
  });
  it("--help needs nothing else", () => {
    expect(parseClientArgs(["--help"]).help).toBe(true);
  });
});

describe("acp-sample-client arguments through node:util parseArgs", () => {
  it("names the flag when a value is missing or an option is unknown", () => {
    expect(() => parseClientArgs(["--prompt"])).toThrow("--prompt needs a value");
    expect(() => parseClientArgs(["--frobnicate", "--", "a"])).toThrow('Unknown argument "--frobnicate"');
    expect(() => parseClientArgs(["--json=yes", "--", "a"])).toThrow("--json");
  });
  it("accepts -y and -h, and refuses --color with --no-color", () => {
    expect(parseClientArgs(["-y", "--", "a"]).permissions).toBe("allow");
    expect(parseClientArgs(["-h"]).help).toBe(true);
    expect(() => parseClientArgs(["--color", "--no-color", "--", "a"])).toThrow("exclude each other");
  });
});
