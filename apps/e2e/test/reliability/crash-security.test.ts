/**
 * Crash faults at each stage of a turn (a SIGKILLed agent process), and the security rules a
 * hostile peer meets: loopback by default, origin and token checked before the upgrade,
 * nothing processed before initialize, no stack traces or paths on the wire, prototype keys inert.
 */
import { join } from "node:path";
import { defineAgent } from "@acp-kit/agent";
import { connectToAgent } from "@acp-kit/client";
import { ConnectionError, createInMemoryTransportPair } from "@acp-kit/protocol/jsonrpc";
import { spawnAgent } from "@acp-kit/transport-stdio";
import { bearerToken, createAcpWebSocketServer } from "@acp-kit/transport-ws/node";
import { beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { assertBuilt, E2E_ROOT } from "../../src/index.js";

beforeAll(() => assertBuilt());

const info = { name: "reliability", version: "1" };

function crashAgent(stage: string) {
  return spawnAgent(process.execPath, [join(E2E_ROOT, "fixtures", "crash-agent.mjs"), stage], { stderr: "pipe" });
}

function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function rejection(promise: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now();
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, ms: Date.now() - started };
}

describe("crash faults at each stage of a turn", { timeout: 30_000 }, () => {
  it("killed while answering initialize: connectToAgent rejects with the exit", async () => {
    const agent = crashAgent("initialize");
    const { error } = await rejection(connectToAgent(agent.transport, { info }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).details.signal).toBe("SIGKILL");
    await agent.exited;
    expect(alive(agent.child.pid)).toBe(false);
  });

  for (const stage of ["session/new", "prompt", "mid-turn"]) {
    it(`killed at ${stage}: the pending call rejects promptly, no process is left`, async () => {
      const agent = crashAgent(stage);
      const client = await connectToAgent(agent.transport, { info });
      let outcome: { error: unknown; ms: number };
      if (stage === "session/new") outcome = await rejection(client.newSession({ cwd: "/tmp", mcpServers: [] }));
      else {
        const session = await client.newSession({ cwd: "/tmp", mcpServers: [] });
        const turn = session.prompt("go");
        outcome = await rejection(stage === "prompt" ? turn.messageId : turn.done);
      }
      expect(outcome.error).toBeInstanceOf(ConnectionError);
      expect(outcome.ms).toBeLessThan(5000);
      expect(await client.closed).toBeInstanceOf(ConnectionError);
      await agent.exited;
      expect(alive(agent.child.pid)).toBe(false);
    });
  }
});

describe("security", { timeout: 20_000 }, () => {
  const agent = defineAgent({
    info,
    validateOutgoing: false,
    prompt: async () => {
      // A turn's thrown message is relayed in its idle error by design; its stack never is.
      throw new Error("model unavailable");
    },
    extMethods: {
      _boom: () => {
        throw new TypeError("Cannot read properties of undefined (reading 'x') at /srv/app/index.js:3:7");
      },
    },
  });

  function rawPair() {
    const [agentSide, clientSide] = createInMemoryTransportPair();
    agent.serve(agentSide);
    const received: string[] = [];
    clientSide.start({ message: (p) => void received.push(p), closed: () => undefined });
    const send = (m: object) => clientSide.send(JSON.stringify({ jsonrpc: "2.0", ...m }));
    const settle = () => clientSide.settled();
    return { received, send, settle, close: () => clientSide.close() };
  }

  it("processes nothing before initialize", async () => {
    const peer = rawPair();
    await peer.send({ id: 1, method: "session/new", params: { cwd: "/tmp" } });
    await peer.settle();
    expect(JSON.parse(peer.received[0] as string)).toMatchObject({ id: 1, error: { code: -32600 } });
    await peer.close();
  });

  it("puts no stack trace or file path on the wire", async () => {
    const peer = rawPair();
    await peer.send({ id: 0, method: "initialize", params: { protocolVersion: 2, info } });
    await peer.send({ id: 1, method: "_boom", params: {} });
    await peer.send({ id: 2, method: "session/new", params: { cwd: "/tmp" } });
    await peer.settle();
    const sessionId = JSON.parse(peer.received.find((r) => r.includes('"id":2')) as string).result.sessionId;
    await peer.send({ id: 3, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "x" }] } });
    await peer.settle();
    const wire = peer.received.join("\n");
    expect(wire).not.toMatch(/\bat \S+:\d+|\/srv\/app|\.ts:\d+|\.js:\d+/);
    expect(wire).toContain("model unavailable");
    expect(JSON.parse(peer.received.find((r) => r.includes('"id":1')) as string)).toMatchObject({
      error: { code: -32603, message: "Internal error" },
    });
    await peer.close();
  });

  it("keeps prototype keys in params inert in the agent (the _meta patch both sides share: packages/protocol/src/acp/meta.test.ts)", async () => {
    const peer = rawPair();
    await peer.send({ id: 0, method: "initialize", params: { protocolVersion: 2, info } });
    const text =
      '{"jsonrpc":"2.0","id":5,"method":"session/new","params":{"cwd":"/tmp","__proto__":{"polluted":true},"_meta":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}}}';
    const [agentSide, clientSide] = createInMemoryTransportPair();
    agent.serve(agentSide);
    clientSide.start({ message: () => undefined, closed: () => undefined });
    await clientSide.send(text);
    await peer.settle();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
    await clientSide.close();
    await peer.close();
  });

  it("binds 127.0.0.1 by default, and checks origin and token before the upgrade", async () => {
    const server = await createAcpWebSocketServer({
      allowedOrigins: ["https://editor.example"],
      authenticate: bearerToken("s3cret"),
      onConnection: (transport) => void agent.serve(transport),
    });
    expect(server.address().address).toBe("127.0.0.1");
    const status = (options: ConstructorParameters<typeof WebSocket>[2]) =>
      new Promise<number>((resolve) => {
        const socket = new WebSocket(server.url, options);
        socket.on("error", () => undefined);
        socket.once("unexpected-response", (_req, res) => {
          resolve(res.statusCode ?? 0);
          res.destroy();
        });
        socket.once("open", () => {
          resolve(101);
          socket.terminate();
        });
      });
    expect(await status({})).toBe(401);
    expect(await status({ headers: { Authorization: "Bearer s3cret" }, origin: "https://evil.example" })).toBe(403);
    expect(await status({ headers: { Authorization: "Bearer s3cret" }, origin: "https://editor.example" })).toBe(101);
    await server.close({ timeoutMs: 500 });
  });
});
