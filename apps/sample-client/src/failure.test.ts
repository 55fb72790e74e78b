import type { AuthMethod } from "@acp-kit/protocol/types";
import { describe, expect, it } from "vitest";
import { authMethodLines, errorText, renderFailure, terminalCommand } from "./failure.js";
import { PLAIN } from "./style.js";

describe("errorText", () => {
  it.each([
    [{ code: -32603, message: "Internal error" }, "Internal error (-32603)"],
    [
      { code: -32603, message: "Internal error", data: { details: "Cannot enable privileged approval modes" } },
      "Internal error (-32603): Cannot enable privileged approval modes",
    ],
    [{ code: -32602, message: "Bad", data: { path: "/cwd" } }, 'Bad (-32602): {"path":"/cwd"}'],
    [{ code: 1, message: "Same", data: "Same" }, "Same (1)"],
    [{ code: -32000, message: "Auth", data: { authMethods: [{ id: "x" }] } }, "Auth (-32000)"],
    [{ message: "no code" }, "no code"],
  ])("%j → %s", (error, text) => {
    expect(errorText(error)).toBe(text);
  });

  it("clips long data", () => {
    expect(errorText({ code: 1, message: "m", data: { details: "x".repeat(1000) } }).length).toBeLessThan(420);
  });
});

const methods: AuthMethod[] = [
  {
    type: "terminal",
    methodId: "gh",
    name: "Log in with GitHub",
    description: "Run copilot login",
    _meta: { "terminal-auth": { command: "copilot", args: ["login"] } },
  },
  { type: "terminal", methodId: "openai", name: "OpenAI key", args: ["--auth-type=openai"] },
  { type: "agent", methodId: "oauth", name: "OAuth" },
];

describe("auth methods on an auth refusal", () => {
  it("a terminal method runs its own command line, else the agent's with its args", () => {
    expect(terminalCommand(methods[0]!, ["qwen", "--acp"])).toBe("copilot login");
    expect(terminalCommand(methods[1]!, ["qwen", "--acp"])).toBe("qwen --acp --auth-type=openai");
    expect(terminalCommand(methods[2]!, ["qwen", "--acp"])).toBeUndefined();
  });

  it("lists names, descriptions and commands", () => {
    expect(authMethodLines(methods, ["qwen", "--acp"])).toEqual([
      "  • Log in with GitHub — Run copilot login",
      "    run in a terminal: copilot login",
      "  • OpenAI key",
      "    run in a terminal: qwen --acp --auth-type=openai",
      "  • OAuth",
    ]);
  });

  it("renderFailure names the step, and lists the methods only for -32000", () => {
    const refusal = { code: -32000, message: "Authentication required" };
    expect(renderFailure(refusal, { step: "session/new", authMethods: methods.slice(2) }, PLAIN)).toEqual([
      "✘ session/new failed: Authentication required (-32000)",
      "  The agent asks to authenticate. It offers:",
      "  • OAuth",
    ]);
    expect(renderFailure(new Error("gone"), { step: "prompt", authMethods: methods }, PLAIN)).toEqual([
      "✘ prompt failed: gone",
    ]);
  });
});
