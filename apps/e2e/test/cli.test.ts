/**
 * The built `acp-sample-client` against the built `acp-sample-agent`, as a user runs them:
 * real processes over stdio (and WebSocket), checked through exit codes and output.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  assertBuilt,
  childPids,
  SAMPLE_CLIENT_BIN,
  sampleAgentCommand,
  sdkAgentCommand,
  startProcess,
  startSampleWsAgent,
  stopAllProcesses,
  type TestProcess,
  type WsAgent,
  waitForExit,
} from "../src/index.js";

beforeAll(() => assertBuilt());
afterEach(() => stopAllProcesses());

function client(args: readonly string[], agentArgs: readonly string[] = []): TestProcess {
  const [command, commandArgs] = sampleAgentCommand(agentArgs);
  return startProcess(process.execPath, [SAMPLE_CLIENT_BIN, "--no-color", ...args, "--", command, ...commandArgs], {
    cwd: "/tmp",
  });
}

async function finished(p: TestProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  p.child.stdin.end();
  const { code } = await p.exited;
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}

interface WireMessage {
  jsonrpc: string;
  id?: string | number | null;
  method?: string;
  params?: { update?: { sessionUpdate?: string; state?: string; stopReason?: string } } & Record<string, unknown>;
  result?: unknown;
  error?: unknown;
}

function parseTranscript(stdout: string): WireMessage[] {
  return stdout
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as WireMessage);
}

describe("acp-sample-client -- acp-sample-agent (stdio)", () => {
  it("runs a full turn and exits 0 on end_turn", async () => {
    const result = await finished(client(["--yes", "--prompt", "show me everything"]));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("› show me everything");
    expect(result.stdout).toContain("✔ Read src/greeting.ts (read, completed)");
    expect(result.stdout).toContain("✔ Allow editing src/greeting.ts? → Allow once (automatic)");
    expect(result.stdout).toContain('+export const greeting = "Hello, ACP!";');
    expect(result.stdout).toContain("│ greeting checks: all good");
    expect(result.stdout).toContain("[x] Run the tests");
    expect(result.stdout).toContain("◆ show me everything");
    expect(result.stdout).toMatch(/— end_turn · 4,200\/200,000 tokens/);
  });

  it("--json prints a valid transcript: only JSON-RPC messages, exactly one idle with end_turn", async () => {
    // Exactly the documented command: no --yes, no terminal, so the permission is answered by rejecting it.
    const result = await finished(client(["--json", "--prompt", "hi"]));
    expect(result.code).toBe(0);
    const messages = parseTranscript(result.stdout);
    for (const message of messages) {
      expect(message.jsonrpc).toBe("2.0");
      const isRequest = typeof message.method === "string" && message.id !== undefined;
      const isNotification = typeof message.method === "string" && message.id === undefined;
      const isResponse =
        message.method === undefined && message.id !== undefined && "result" in message !== "error" in message;
      expect(isRequest || isNotification || isResponse, JSON.stringify(message)).toBe(true);
    }
    const idles = messages.filter(
      (m) =>
        m.method === "session/update" &&
        m.params?.update?.sessionUpdate === "state_update" &&
        m.params.update.state === "idle",
    );
    expect(idles).toHaveLength(1);
    expect(idles[0]?.params?.update?.stopReason).toBe("end_turn");
    // Both directions are there: our initialize and the agent's permission request.
    expect(messages[0]?.method).toBe("initialize");
    expect(messages.some((m) => m.method === "session/request_permission")).toBe(true);
    // The rendering went to stderr, not stdout.
    expect(result.stderr).toContain("› hi");
  });

  it("--no rejects the permission: the edit fails, nothing runs, the turn still ends end_turn", async () => {
    const result = await finished(client(["--no", "--prompt", "edit please"]));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("✘ Allow editing src/greeting.ts? → Reject (automatic)");
    expect(result.stdout).toContain("✘ Edit src/greeting.ts (edit, failed)");
    expect(result.stdout).not.toContain("npm test");
    expect(result.stdout).toContain("[-] Run the tests");
  });

  it("--config changes the agent's behaviour: mode auto asks nothing, model pirate rewords", async () => {
    const result = await finished(
      client(["--json", "--config", "mode=auto", "--config", "model=pirate", "--prompt", "go"]),
    );
    expect(result.code).toBe(0);
    const messages = parseTranscript(result.stdout);
    expect(messages.filter((m) => m.method === "session/set_config_option")).toHaveLength(2);
    expect(messages.some((m) => m.method === "session/request_permission")).toBe(false);
    expect(result.stderr).toContain("Aye, 'tis done!");
  });

  it("an unknown config option is reported and exits 1", async () => {
    const result = await finished(client(["--config", "colour=blue", "--prompt", "go"]));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no config option "colour"');
  });

  it("/fail ends with the error stop reason and exit status 1", async () => {
    const result = await finished(client(["--prompt", "/fail"]));
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("— error: The /fail command failed on purpose (-32099)");
  });

  it("SIGINT cancels the running turn (exit 130) and the agent process is gone afterwards", async () => {
    // --json shows the output chunks as they stream (the rendered transcript only shows finished entries).
    const p = client(["--json", "--prompt", "/slow 20"]);
    await p.waitForLine(/"terminal_output_chunk"/, { stream: "stdout", timeoutMs: 15_000 });
    // The agent's pid, to check it is gone afterwards (Linux /proc; elsewhere the check is skipped).
    const [agentPid] = await childPids(p.pid);
    if (process.platform === "linux") expect(agentPid).toBeGreaterThan(0);
    p.child.kill("SIGINT");
    const result = await finished(p);
    expect(result.code).toBe(130);
    expect(result.stderr).toContain("Cancelling…");
    expect(result.stderr).toContain("⊘ Wait 20 seconds (execute, cancelled)");
    expect(result.stderr).toContain("└ killed by SIGINT");
    expect(result.stderr).toContain("— cancelled");
    const messages = parseTranscript(result.stdout);
    expect(messages.some((m) => m.method === "session/cancel")).toBe(true);
    if (agentPid !== undefined) expect(await waitForExit(agentPid, 5000)).toBe(true);
  });

  it("the REPL reads prompts from stdin, one turn after the other, and exits at end of input", async () => {
    const p = client(["--yes"]);
    p.child.stdin.write("/help\n");
    p.child.stdin.write("/fail\n");
    p.child.stdin.end(":quit\n");
    const { code } = await p.exited;
    expect(p.stdout()).toContain("- /slow: A long turn to practise cancelling");
    expect(p.stdout()).toContain("— error: The /fail command failed on purpose");
    expect(p.stdout().indexOf("› /help")).toBeLessThan(p.stdout().indexOf("› /fail"));
    expect(code).toBe(1);
  });

  it("an agent that dies is reported with its exit code: exit 1", async () => {
    const crash = "process.stdin.once('data', () => { process.stderr.write('boom\\n'); process.exit(3); })";
    const p = startProcess(process.execPath, [SAMPLE_CLIENT_BIN, "--prompt", "x", "--", process.execPath, "-e", crash]);
    expect((await p.exited).code).toBe(1);
    expect(p.stderr()).toContain("agent │ boom");
    expect(p.stderr()).toMatch(/exited with code 3/);
  });

  it("a missing agent command is reported, exit 1; bad arguments exit 2", async () => {
    const missing = startProcess(process.execPath, [SAMPLE_CLIENT_BIN, "--prompt", "x", "--", "/nonexistent/agent"]);
    expect((await missing.exited).code).toBe(1);
    expect(missing.stderr()).toMatch(/nonexistent/);
    const bad = startProcess(process.execPath, [SAMPLE_CLIENT_BIN, "--bogus"]);
    expect((await bad.exited).code).toBe(2);
    expect(bad.stderr()).toContain('Unknown argument "--bogus"');
  });
});

describe("acp-sample-client -- an agent written with the official SDK", () => {
  it("renders its turn (streamed text, the permission-gated tool call) and exits 0", async () => {
    const [command, args] = sdkAgentCommand();
    const p = startProcess(process.execPath, [
      SAMPLE_CLIENT_BIN,
      "--no-color",
      "--yes",
      "--prompt",
      "hello",
      "--",
      command,
      ...args,
    ]);
    const { code } = await p.exited;
    expect(code, p.stderr()).toBe(0);
    expect(p.stdout()).toContain("Official SDK fixture agent 2.4.0");
    expect(p.stdout()).toContain("Hello from the official SDK.");
    expect(p.stdout()).toContain("✔ Allow editing README.md? → Allow (automatic)");
    expect(p.stdout()).toContain("✔ Edit README.md (edit, completed)");
    expect(p.stdout()).toContain("— end_turn");
  });
});

describe("acp-sample-agent process lifecycle", () => {
  it("exits with 0 soon after its stdin closes", async () => {
    const [command, args] = sampleAgentCommand();
    const agent = startProcess(command, args);
    agent.child.stdin.end();
    const started = Date.now();
    const { code } = await agent.exited;
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("logs only to stderr: stdout carries nothing but protocol messages", async () => {
    const [command, args] = sampleAgentCommand(["--verbose"]);
    const agent = startProcess(command, args);
    agent.child.stdin.write(
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"t","version":"0"}}}\n',
    );
    agent.child.stdin.write("this is not json\n");
    await agent.waitForLine(/"id":null/, { stream: "stdout" });
    agent.child.stdin.end();
    await agent.exited;
    const lines = agent
      .stdout()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as WireMessage);
    expect(lines).toHaveLength(2);
    expect(lines.find((l) => l.id === 1)?.result).toMatchObject({
      protocolVersion: 2,
      info: { name: "acp-sample-agent" },
    });
    expect(lines.find((l) => l.id === null)?.error).toMatchObject({ code: -32700 });
  });
});

describe("acp-sample-client --ws", () => {
  let server: WsAgent;
  // Per test: the global afterEach stops every process a test started.
  beforeEach(async () => {
    server = await startSampleWsAgent(["--token", "s3cret"]);
  });

  it("prints the bound port on stderr and serves a full turn with the bearer token", async () => {
    expect(server.port).toBeGreaterThan(0);
    const p = startProcess(process.execPath, [
      SAMPLE_CLIENT_BIN,
      "--no-color",
      "--ws",
      server.url,
      "--token",
      "s3cret",
      "--yes",
      "--prompt",
      "hi",
    ]);
    const { code } = await p.exited;
    expect(p.stderr()).toBe("");
    expect(code).toBe(0);
    expect(p.stdout()).toContain("— end_turn");
  });

  it("--resume replays a session's history, then runs the new prompt in it", async () => {
    const common = [SAMPLE_CLIENT_BIN, "--no-color", "--ws", server.url, "--token", "s3cret", "--cwd", "/tmp"];
    const first = startProcess(process.execPath, [...common, "--json", "--yes", "--prompt", "first prompt"]);
    expect((await first.exited).code).toBe(0);
    const sessionId = parseTranscript(first.stdout())
      .map((m) => (m.result as { sessionId?: unknown } | undefined)?.sessionId)
      .find((id): id is string => typeof id === "string");
    expect(sessionId).toBeDefined();

    const second = startProcess(process.execPath, [...common, "--resume", sessionId as string, "--prompt", "/help"]);
    expect((await second.exited).code).toBe(0);
    const out = second.stdout();
    expect(out).toContain(`session ${sessionId}`);
    expect(out).toContain("› first prompt");
    expect(out).toContain("✔ Run npm test (execute, completed)");
    expect(out.indexOf("› first prompt")).toBeLessThan(out.indexOf("› /help"));
    expect(out).toContain("- /fail: A turn that ends with the error stop reason");
  });

  it("a wrong token is refused before the upgrade: exit 1 with the HTTP status", async () => {
    const p = startProcess(process.execPath, [
      SAMPLE_CLIENT_BIN,
      "--ws",
      server.url,
      "--token",
      "wrong",
      "--prompt",
      "hi",
    ]);
    const { code } = await p.exited;
    expect(code).toBe(1);
    expect(p.stderr(), p.stderr()).toMatch(/401/);
  });
});
