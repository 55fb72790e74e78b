/**
 * The sample binaries facing a hostile or broken peer: an agent that never answers initialize
 * or prints noise on stdout (the client reports and gives up, it never hangs), and the sample
 * agent's exit codes and messages for an oversized line, a port in use, an open bind.
 */
import { createServer } from "node:net";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, SAMPLE_AGENT_BIN, SAMPLE_CLIENT_BIN, startProcess, stopAllProcesses } from "../../src/index.js";

beforeAll(() => assertBuilt());
afterEach(() => stopAllProcesses());

function clientWith(agentScript: string, timeoutMs: number) {
  return startProcess(
    process.execPath,
    [SAMPLE_CLIENT_BIN, "--no-color", "--prompt", "hi", "--", process.execPath, "-e", agentScript],
    {
      cwd: "/tmp",
      env: { ...process.env, ACP_KIT_INITIALIZE_TIMEOUT_MS: String(timeoutMs) },
    },
  );
}

describe("sample client against broken agents", { timeout: 30_000 }, () => {
  it("11. an agent that never answers initialize: a waiting note, then an error naming the command, exit 1", async () => {
    const client = clientWith('process.stderr.write("booting forever\\n"); setInterval(() => {}, 1000)', 3500);
    const { code } = await client.exited;
    expect(code).toBe(1);
    expect(client.stderr()).toContain("Waiting for the agent to answer initialize");
    expect(client.stderr()).toMatch(/did not answer initialize within 3500 ms/);
    expect(client.stderr()).toContain(process.execPath);
    expect(client.stderr()).toContain("booting forever");
  });

  it("12. an agent printing non-JSON on stdout: the line and its source are shown, and the client does not hang", async () => {
    const client = clientWith('console.log("Welcome to my agent v1!"); setInterval(() => {}, 1000)', 1500);
    const { code } = await client.exited;
    expect(code).toBe(1);
    expect(client.stderr()).toMatch(/stdout of agent .*not JSON-RPC: "Welcome to my agent v1!"/);
  });
});

describe("sample agent exits and warnings", { timeout: 30_000 }, () => {
  it("13. exits non-zero after an oversized line (payload_too_large)", async () => {
    const agent = startProcess(process.execPath, [SAMPLE_AGENT_BIN]);
    const line = Buffer.alloc(33 * 1024 * 1024, 0x61);
    agent.child.stdin.write(line);
    agent.child.stdin.write("\n");
    const { code } = await agent.exited;
    expect(code).toBe(1);
    expect(agent.stderr()).toContain("exceeds the maximum");
  });

  it("13. a port already in use gives one clear line and exit 1, no stack trace", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const agent = startProcess(process.execPath, [SAMPLE_AGENT_BIN, "--ws", `127.0.0.1:${port}`]);
      const { code } = await agent.exited;
      expect(code).toBe(1);
      expect(agent.stderr()).toContain(
        `cannot listen on 127.0.0.1:${port}: the address is already in use (EADDRINUSE)`,
      );
      expect(agent.stderr()).not.toMatch(/\n\s+at /);
    } finally {
      blocker.close();
    }
  });

  it("13. --ws 0.0.0.0:0 without --token warns; with a token or on loopback it does not", async () => {
    const open = startProcess(process.execPath, [SAMPLE_AGENT_BIN, "--ws", "0.0.0.0:0"]);
    await open.waitForLine(/listening on/, { stream: "stderr", timeoutMs: 10_000 });
    expect(open.stderr()).toContain("warning: listening on 0.0.0.0 without --token");
    const guarded = startProcess(process.execPath, [SAMPLE_AGENT_BIN, "--ws", "0.0.0.0:0", "--token", "t"]);
    await guarded.waitForLine(/listening on/, { stream: "stderr", timeoutMs: 10_000 });
    expect(guarded.stderr()).not.toContain("warning");
    const local = startProcess(process.execPath, [SAMPLE_AGENT_BIN, "--ws", "127.0.0.1:0"]);
    await local.waitForLine(/listening on/, { stream: "stderr", timeoutMs: 10_000 });
    expect(local.stderr()).not.toContain("warning");
  });
});
