// Noise and volume a spawned agent controls (docs/limits.md): stdout lines that are not
// JSON-RPC, stderr floods the pass-through must not queue without end, invalid UTF-8.
import { PassThrough, Writable } from "node:stream";
import { Connection } from "@acp-kit/protocol/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import { ndjsonTransport, spawnAgent } from "../src/index.js";
import { stderrPassThrough } from "../src/stderr-pass-through.js";
import { killAllSpawned, track } from "./support.js";

afterEach(killAllSpawned);

const noisyAgent = `
process.stdout.write("Hello from a banner\\n");
process.stdin.on("data", (chunk) => {
  for (const line of chunk.toString().split("\\n").filter(Boolean)) {
    const { id } = JSON.parse(line);
    process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, result: "ok" }) + "\\n");
  }
});`;

describe("stdio noise and floods", () => {
  it("reports a non-JSON line on the agent's stdout with its first bytes and source, and goes on", async () => {
    const warnings: string[] = [];
    const agent = track(
      spawnAgent(process.execPath, ["-e", noisyAgent], {
        stderr: "pipe",
        logger: { warn: (message) => void warnings.push(message) },
      }),
    );
    const connection = new Connection(agent.transport);
    connection.listen();
    expect(await connection.request("ping")).toBe("ok");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("stdout of agent");
    expect(warnings[0]).toContain(process.execPath);
    expect(warnings[0]).toContain('"Hello from a banner"');
    expect(agent.transport.describePeer?.().source).toContain("stdout of agent");
    await connection.close();
  });

  it("drops and counts stderr pass-through past its bound when the target does not keep up", async () => {
    const written: Buffer[] = [];
    let release: (() => void) | undefined;
    // A target that accepts one write and then stalls until released.
    const target = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _encoding, callback) {
        written.push(chunk);
        release = callback;
      },
    });
    const pass = stderrPassThrough(target, 64 * 1024);
    const chunk = Buffer.alloc(16 * 1024, 0x61);
    for (let i = 0; i < 10_000; i++) pass.write(chunk);
    // 160 MB offered; what waits in the target stays under the bound plus one chunk.
    expect(target.writableLength).toBeLessThanOrEqual(64 * 1024 + chunk.byteLength);
    expect(pass.droppedBytes).toBeGreaterThan(150 * 1024 * 1024);
    // Let the target drain: a line reports how much was dropped.
    while (release) {
      const next = release;
      release = undefined;
      next();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const report = written.map((b) => b.toString()).find((t) => t.startsWith("[acp-kit] dropped"));
    expect(report).toContain(`${pass.droppedBytes} bytes`);
  });

  it("replaces invalid UTF-8 in a line with U+FFFD and warns", async () => {
    const input = new PassThrough();
    const warnings: string[] = [];
    const transport = ndjsonTransport(input, new PassThrough(), { logger: { warn: (m) => void warnings.push(m) } });
    const received: string[] = [];
    transport.start({ message: (p) => void received.push(p), closed: () => undefined });
    input.write(Buffer.from([0x22, 0xff, 0x22, 0x0a]));
    input.write(Buffer.from('"\uFFFD is fine when it is real"\n'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual(['"\uFFFD"', '"\uFFFD is fine when it is real"']);
    expect(warnings).toEqual([expect.stringContaining("invalid UTF-8")]);
    await transport.close();
  });
});
