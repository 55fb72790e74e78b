import { join } from "node:path";
import { Connection, ConnectionError } from "@acp-kit/protocol/jsonrpc";
import { afterEach, describe, expect, it, vi } from "vitest";
import { spawnAgent } from "../src/index.js";
import { isPending, killAllSpawned, spawnFixture, tempDir, track, writeFile } from "./support.js";

afterEach(killAllSpawned);

describe("spawnAgent", () => {
  it("talks to an echo agent and shuts it down cleanly on close", async () => {
    const agent = spawnFixture("echo-agent.mjs");
    const connection = new Connection(agent.transport);
    connection.listen();
    expect(await connection.request("echo", { text: "héllo 🙂" })).toEqual({ text: "héllo 🙂" });
    const many = await Promise.all(Array.from({ length: 200 }, (_, i) => connection.request("echo", { i })));
    expect(many).toHaveLength(200);
    await connection.close();
    expect(await connection.closed).toBeUndefined();
    expect(await agent.exited).toEqual({ code: 0, signal: null });
    expect(agent.stderrTail()).toContain("echo-agent: stdin closed");
  });

  it("shuts the agent down when an `await using` block is left, normally or by a throw", async () => {
    let spawned: ReturnType<typeof spawnFixture> | undefined;
    const thrown = await (async () => {
      await using agent = spawnFixture("echo-agent.mjs");
      spawned = agent;
      const connection = new Connection(agent.transport);
      connection.listen();
      expect(await connection.request("echo", { n: 1 })).toEqual({ n: 1 });
      throw new Error("the block failed");
    })().catch((error: unknown) => error);
    expect((thrown as Error).message).toBe("the block failed");
    // Disposal ran before the error reached the caller: the process has already exited.
    expect(await isPending(spawned!.exited)).toBe(false);
    expect(await spawned!.exited).toEqual({ code: 0, signal: null });
    expect(spawned!.stderrTail()).toContain("echo-agent: stdin closed");

    const { exited } = await (async () => {
      await using agent = spawnFixture("echo-agent.mjs");
      return { exited: agent.exited };
    })();
    expect(await isPending(exited)).toBe(false);
  });

  it("rejects the pending request with the exit code and the stderr tail when the agent crashes", async () => {
    const agent = spawnFixture("echo-agent.mjs");
    const connection = new Connection(agent.transport);
    connection.listen();
    await connection.request("echo", {});
    const error = await connection.request("crash", { code: 7, reason: "out of tokens" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    const failure = error as ConnectionError;
    expect(failure.kind).toBe("closed");
    expect(failure.details.exitCode).toBe(7);
    expect(failure.details.signal).toBeNull();
    expect(failure.details.stderrTail).toEqual([
      "echo-agent: started",
      "echo-agent: about to crash",
      "echo-agent: fatal: out of tokens",
    ]);
    expect(failure.message).toMatch(/exited with code 7.*out of tokens/);
    expect(await connection.closed).toBe(failure);
    await expect(connection.request("echo", {})).rejects.toBe(failure);
  });

  it("reports a signal death with the signal name", async () => {
    const agent = spawnFixture("echo-agent.mjs");
    const connection = new Connection(agent.transport);
    connection.listen();
    await connection.request("echo", {});
    const pending = connection.request("echo-never-answered-after-kill", {}).catch((e: unknown) => e);
    agent.kill("SIGKILL");
    // The echo may or may not have been answered before the kill; the connection must end either way.
    await pending;
    const error = await connection.closed;
    expect(error?.details.signal).toBe("SIGKILL");
    expect(error?.details.exitCode).toBeNull();
    expect(error?.message).toMatch(/killed by SIGKILL/);
  });

  it("keeps going when the agent writes garbage to stdout (the connection answers -32700)", async () => {
    const agent = spawnFixture("garbage-agent.mjs");
    const connection = new Connection(agent.transport);
    connection.listen();
    for (let i = 0; i < 5; i++) {
      expect(await connection.request("echo", { i })).toEqual({ i });
    }
    expect(connection.isClosed).toBe(false);
    await connection.close();
  });

  it("ends the shutdown ladder with SIGKILL for an agent that ignores stdin closing and SIGTERM", async () => {
    const agent = spawnFixture("stubborn-agent.mjs", { shutdown: { stdinGraceMs: 300, termGraceMs: 400 } });
    const ready = new Promise<void>((resolve) => {
      agent.transport.start({ message: () => resolve(), closed: () => {} });
    });
    await ready;
    const started = performance.now();
    await agent.transport.close();
    const elapsed = performance.now() - started;
    expect(await agent.exited).toEqual({ code: null, signal: "SIGKILL" });
    expect(elapsed).toBeGreaterThanOrEqual(650);
    expect(elapsed).toBeLessThan(5000);
    expect(agent.stderrTail()).toContain("stubborn-agent: ignoring SIGTERM");
  });

  it("stops at SIGTERM when the agent honours it", async () => {
    const agent = spawnFixture("term-agent.mjs", { shutdown: { stdinGraceMs: 200, termGraceMs: 10_000 } });
    await new Promise<void>((resolve) => agent.transport.start({ message: () => resolve(), closed: () => {} }));
    const started = performance.now();
    await agent.shutdown();
    expect(performance.now() - started).toBeLessThan(5000);
    expect(await agent.exited).toEqual({ code: 0, signal: null });
    expect(agent.stderrTail()).toContain("term-agent: got SIGTERM");
  });

  it("applies backpressure when the agent never reads: send waits and the buffer stays bounded", async () => {
    const agent = spawnFixture("deaf-agent.mjs", {
      highWaterMark: 64 * 1024,
      shutdown: { stdinGraceMs: 100, termGraceMs: 1000 },
    });
    const connection = new Connection(agent.transport);
    connection.listen();
    const payload = { blob: "x".repeat(4096) };
    let sent = 0;
    let blocked: Promise<void> | undefined;
    // Our pipe writes complete at once while the pipe has room, so a send is left waiting (for a
    // drain that a deaf agent never brings) only once the pipe is full.
    for (; sent < 10_000; sent++) {
      const notified = connection.notify("fill", payload);
      if (await isPending(notified)) {
        blocked = notified;
        break;
      }
    }
    expect(blocked).toBeDefined();
    // Pipe capacity (64 KiB on Linux) plus our high-water mark plus one payload, with slack.
    expect(sent * 4096).toBeLessThan(1024 * 1024);
    expect(agent.transport.bufferedBytes).toBeLessThan(64 * 1024 + 2 * 4200);
    const stillBlocked = await isPending(blocked!);
    expect(stillBlocked).toBe(true);
    const outcome = blocked!.catch((e: unknown) => e);
    await connection.close();
    expect(await outcome).toBeInstanceOf(ConnectionError);
    expect((await agent.exited).signal).toBe("SIGTERM");
  });

  it("closes with payload_too_large when the agent sends a line past the maximum", async () => {
    const agent = spawnFixture("echo-agent.mjs", { maxLineBytes: 1024 });
    const connection = new Connection(agent.transport);
    connection.listen();
    await connection.request("echo", { small: true });
    const error = await connection.request("echo", { big: "y".repeat(2000) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).kind).toBe("payload_too_large");
    // The agent is shut down (its stdin closed: the echo agent then exits by itself).
    expect(await agent.exited).toEqual({ code: 0, signal: null });
  });

  it("fails with connect_failed (ENOENT) for a command that does not exist, without hanging", async () => {
    const agent = track(spawnAgent("acp-kit-no-such-agent-binary", ["--flag"], { stderr: "pipe" }));
    const connection = new Connection(agent.transport);
    connection.listen();
    const error = await connection.request("initialize", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).kind).toBe("connect_failed");
    expect((error as ConnectionError).details.code).toBe("ENOENT");
    expect((error as ConnectionError).message).toContain("acp-kit-no-such-agent-binary");
    expect(await agent.exited).toEqual({ code: null, signal: null });
  });

  it("names a missing working directory in the connect_failed message", async () => {
    const agent = track(spawnAgent(process.execPath, ["-e", ""], { cwd: "/nonexistent/acp-kit-dir", stderr: "pipe" }));
    const error = await new Promise<Error | undefined>((resolve) =>
      agent.transport.start({ message: () => {}, closed: resolve }),
    );
    expect((error as ConnectionError).kind).toBe("connect_failed");
    expect((error as ConnectionError).message).toContain(
      "the working directory /nonexistent/acp-kit-dir does not exist",
    );
  });

  it("throws connect_failed at once for arguments spawn refuses", () => {
    let error: unknown;
    try {
      spawnAgent(process.execPath, ["bad\u0000arg"]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).kind).toBe("connect_failed");
  });

  it("fails with connect_failed (EACCES) for a file that is not executable", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const script = join(dir, "agent.sh");
      writeFile(script, "#!/bin/sh\necho hi\n", 0o644);
      const agent = track(spawnAgent(script, [], { stderr: "pipe" }));
      const closed = new Promise<Error | undefined>((resolve) =>
        agent.transport.start({ message: () => {}, closed: resolve }),
      );
      const error = await closed;
      expect((error as ConnectionError).kind).toBe("connect_failed");
      expect((error as ConnectionError).details.code).toBe("EACCES");
    } finally {
      cleanup();
    }
  });

  it("reports an agent that exits with code 0 on its own as a closed error with details", async () => {
    const agent = track(
      spawnAgent(
        process.execPath,
        ["-e", 'console.error(\'bye\'); process.stdout.write(\'{"jsonrpc":"2.0","method":"hi"}\\n\')'],
        { stderr: "pipe" },
      ),
    );
    const messages: string[] = [];
    const error = await new Promise<Error | undefined>((resolve) =>
      agent.transport.start({ message: (m) => void messages.push(m), closed: resolve }),
    );
    // The last message written before exit is still delivered.
    expect(messages).toEqual(['{"jsonrpc":"2.0","method":"hi"}']);
    expect((error as ConnectionError).kind).toBe("closed");
    expect((error as ConnectionError).details).toMatchObject({ exitCode: 0, signal: null, stderrTail: ["bye"] });
  });

  it("interoperates with an agent built on the official SDK", async () => {
    const agent = spawnFixture("sdk-agent.mjs");
    const connection = new Connection(agent.transport);
    const texts: string[] = [];
    connection.onNotification("session/update", (params) => {
      const update = (params as { update: { content: { text: string } } }).update;
      texts.push(update.content.text);
    });
    connection.listen();
    const init = await connection.request<{ protocolVersion: number; info: { name: string } }>("initialize", {
      protocolVersion: 2,
      info: { name: "acp-kit-client", version: "0.0.0" },
    });
    expect(init).toMatchObject({ protocolVersion: 2, info: { name: "sdk-fixture-agent" } });
    expect(await connection.request("_sdk/stream", { count: 200 })).toEqual({ sent: 200 });
    expect(texts).toHaveLength(200);
    expect(texts[199]).toBe("chunk 199 ü🙂");
    await connection.close();
    expect(await agent.exited).toEqual({ code: 0, signal: null });
  });

  it("still delivers what an agent wrote before exiting when the transport is started late", async () => {
    const agent = track(
      spawnAgent(process.execPath, ["-e", "process.stdout.write('{\"early\":true}\\n')"], { stderr: "pipe" }),
    );
    await agent.exited;
    // Started late: once what the agent wrote waits in our buffer.
    await vi.waitFor(() => expect(agent.child.stdout?.readableLength).toBeGreaterThan(0), { timeout: 5000 });
    const messages: string[] = [];
    const error = await new Promise<Error | undefined>((resolve) =>
      agent.transport.start({ message: (m) => void messages.push(m), closed: resolve }),
    );
    expect(messages).toEqual(['{"early":true}']);
    expect((error as ConnectionError).details.exitCode).toBe(0);
  });

  it("forwards stderr lines to a callback", async () => {
    const lines: string[] = [];
    const agent = track(
      spawnAgent(process.execPath, ["-e", "console.error('one'); console.error('two\\r\\nthree')"], {
        stderr: (line) => lines.push(line),
      }),
    );
    agent.transport.start({ message: () => {}, closed: () => {} });
    await agent.exited;
    await expect.poll(() => lines).toEqual(["one", "two", "three"]);
  });
});
