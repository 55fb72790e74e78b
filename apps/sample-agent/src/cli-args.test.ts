import { describe, expect, it } from "vitest";
import { parseAgentArgs, parseListenAddress } from "./cli-args.js";

describe("acp-sample-agent arguments", () => {
  it("defaults to stdio", () => {
    expect(parseAgentArgs([])).toEqual({ verbose: false, help: false });
  });
  it("parses --ws with and without a host, --token, --mode, --model and --pace", () => {
    expect(parseAgentArgs(["--ws", "0"]).ws).toEqual({ host: "127.0.0.1", port: 0 });
    expect(parseAgentArgs(["--ws=0.0.0.0:8080", "--token", "s3cret"])).toMatchObject({
      ws: { host: "0.0.0.0", port: 8080 },
      token: "s3cret",
    });
    expect(parseAgentArgs(["--mode", "auto", "--model=pirate", "--pace", "0"])).toMatchObject({
      mode: "auto",
      model: "pirate",
      paceMs: 0,
    });
    expect(parseAgentArgs(["--data-dir", "/tmp/s"]).dataDir).toBe("/tmp/s");
    expect(parseAgentArgs(["--postgres", "postgres://u@h:1/d"]).postgres).toBe("postgres://u@h:1/d");
    expect(parseListenAddress("[::1]:9000")).toEqual({ host: "::1", port: 9000 });
  });
  it("refuses bad input with a message naming the flag", () => {
    expect(() => parseAgentArgs(["--ws"])).toThrow("--ws needs a value");
    expect(parseAgentArgs(["--http", "0", "--token", "t"])).toMatchObject({
      http: { host: "127.0.0.1", port: 0 },
      token: "t",
    });
    expect(() => parseAgentArgs(["--http", "x:y"])).toThrow("--http expects [host:]port");
    expect(() => parseAgentArgs(["--http", "0", "--ws", "0"])).toThrow("alternatives");
    expect(() => parseAgentArgs(["--ws", "host:port"])).toThrow("[host:]port");
    expect(() => parseAgentArgs(["--ws", "70000"])).toThrow("out of range");
    expect(() => parseAgentArgs(["--token", "t"])).toThrow("only applies with --ws");
    expect(() => parseAgentArgs(["--mode", "yolo"])).toThrow("ask or auto");
    expect(() => parseAgentArgs(["--pace", "-1"])).toThrow("--pace");
    expect(() => parseAgentArgs(["--data-dir="])).toThrow("--data-dir needs a directory");
    expect(() => parseAgentArgs(["--postgres", "mysql://x"])).toThrow("postgres:// URL");
    expect(() => parseAgentArgs(["--data-dir", "d", "--postgres", "postgres://x"])).toThrow("alternatives");
    expect(() => parseAgentArgs(["--frobnicate"])).toThrow('Unknown argument "--frobnicate"');
  });
});
