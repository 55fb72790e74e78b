import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { afterEach, describe, expect, it } from "vitest";
import { fixture, killAllSpawned, packageDir, spawnSourceFixture } from "./support.js";

afterEach(killAllSpawned);

/** Starts the transport with a sink that keeps every payload; resolves `response` when the answer to `id` arrives. */
function collect(agent: ReturnType<typeof spawnSourceFixture>) {
  const payloads: string[] = [];
  let onPayload: (() => void) | undefined;
  agent.transport.start({
    message: (payload) => {
      payloads.push(payload);
      onPayload?.();
    },
    closed: () => {},
  });
  const responseTo = (id: number): Promise<unknown> =>
    new Promise((resolve) => {
      const check = (): void => {
        for (const p of payloads) {
          const message = JSON.parse(p) as { id?: unknown };
          if (message.id === id) resolve(message);
        }
      };
      onPayload = check;
      check();
    });
  return { payloads, responseTo };
}

describe("stdioTransport (agent side, in a real process)", () => {
  it("keeps stray console.log and stdout writes out of the protocol stream (redirect mode)", async () => {
    const agent = spawnSourceFixture("noisy-agent.mjs");
    const { payloads, responseTo } = collect(agent);
    await agent.transport.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "echo", params: { text: "hi" } }));
    expect(await responseTo(1)).toEqual({ jsonrpc: "2.0", id: 1, result: { text: "hi" } });
    // Every line on stdout is a protocol message: 20 notifications, then the response.
    const messages = payloads.map((p) => JSON.parse(p) as { method?: string });
    expect(messages.filter((m) => m.method === "progress")).toHaveLength(20);
    expect(messages).toHaveLength(21);
    const stderr = agent.stderrTail().join("\n");
    expect(stderr).toContain("stray log after the guard was installed");
    expect(stderr).toContain("raw stray write");
    expect(stderr).toContain("progress 19");
    await agent.shutdown();
    await expect.poll(() => agent.stderrTail().join("\n")).toContain("noisy-agent: connection closed cleanly");
  });

  it("throws StdoutReservedError at the stray call site in throw mode", async () => {
    const agent = spawnSourceFixture("noisy-agent.mjs", { env: { GUARD: "throw" } });
    const { responseTo } = collect(agent);
    await agent.transport.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "log-throws" }));
    expect(await responseTo(1)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { threw: true, name: "StdoutReservedError" },
    });
    // console.log cannot throw (Node's console swallows stream errors): the blocked text and its stack go to stderr.
    const stderr = agent.stderrTail().join("\n");
    expect(stderr).toContain('[acp-kit] blocked a write to stdout: "swallowed by console in throw mode\\n"');
    expect(stderr).toContain("StdoutReservedError");
  });

  it("exits by itself within 2 s once stdin closes", async () => {
    // A long stdin grace: if the process exits, it did so on its own, not by the ladder's SIGTERM.
    const agent = spawnSourceFixture("lingering-agent.mjs", { shutdown: { stdinGraceMs: 10_000, termGraceMs: 1000 } });
    const { responseTo } = collect(agent);
    await agent.transport.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }));
    expect(await responseTo(1)).toMatchObject({ result: "pong" });
    const started = performance.now();
    agent.child.stdin.end();
    expect(await agent.exited).toEqual({ code: 0, signal: null });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(agent.stderrTail()).toContain("lingering-agent: connection closed");
  });

  it("exitAfterCloseMs ends a process that a forgotten handle would keep alive", async () => {
    const agent = spawnSourceFixture("lingering-agent.mjs", {
      env: { EXIT_AFTER_CLOSE_MS: "100" },
      shutdown: { stdinGraceMs: 10_000, termGraceMs: 1000 },
    });
    const { responseTo } = collect(agent);
    await agent.transport.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }));
    await responseTo(1);
    const started = performance.now();
    agent.child.stdin.end();
    expect(await agent.exited).toEqual({ code: 0, signal: null });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("interoperates with the official SDK's ndJsonStream client", async () => {
    // The SDK client owns the pipes here, so the agent is spawned with plain child_process.
    const child = spawn(process.execPath, ["--import", "tsx", fixture("streaming-agent.mjs")], {
      cwd: packageDir,
      env: { ...process.env, TSX_TSCONFIG_PATH: fixture("tsconfig.json") },
      stdio: ["pipe", "pipe", "inherit"],
    });
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    );
    try {
      const stream = acp.ndJsonStream(
        Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
        Readable.toWeb(child.stdout) as unknown as ReadableStream<Uint8Array>,
      );
      const chunks: string[] = [];
      const client = acp.client().onNotification("session/update", ({ params }) => {
        const update = params.update as { sessionUpdate: string; content?: { type: string; text?: string } };
        if (update.sessionUpdate === "agent_message_chunk" && update.content?.type === "text")
          chunks.push(update.content.text ?? "");
      });
      const result = await client.connectWith(stream, async (context) => {
        const init = await context.request("initialize", {
          protocolVersion: acp.PROTOCOL_VERSION,
          info: { name: "sdk-client", version: "1.0.0" },
        });
        expect(init.protocolVersion).toBe(2);
        expect(init.info?.name).toBe("acp-kit-streaming-fixture");
        return context.request<{ sent: number }>("_acpkit/stream", { count: 100 });
      });
      expect(result).toEqual({ sent: 100 });
      await expect.poll(() => chunks.length).toBe(100);
      expect(chunks[99]).toBe("chunk 99 ü🙂 ");
      // connectWith closed the SDK side; the agent sees stdin end and exits by itself.
      child.stdin.end();
      expect(await exited).toEqual({ code: 0, signal: null });
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    }
  });
});
