/**
 * Our client library (`@acp-kit/client`) driving the BUILT sample agent in its own process, over
 * stdio and over WebSocket: the lifecycle cases one by one, resume with replay after a dropped
 * socket, and clean shutdown.
 */
import { type AcpClient, type ClientHandlers, type ClientSession, connectToAgent, RequestError } from "@acp-kit/client";
import { type SpawnedAgent, spawnAgent } from "@acp-kit/transport-stdio";
import { connectWebSocket } from "@acp-kit/transport-ws/node";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  assertBuilt,
  normalizeSnapshot,
  sampleAgentCommand,
  startSampleWsAgent,
  startTcpProxy,
  stopAllProcesses,
  type TcpProxy,
  type WsAgent,
  waitForExit,
} from "../src/index.js";

beforeAll(() => assertBuilt());
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  await stopAllProcesses();
});

const INFO = { name: "e2e", version: "0" };
const CWD = "/work/project";

const answer = (optionId: string): ClientHandlers => ({
  requestPermission: () => ({ outcome: { outcome: "selected", optionId } }),
});

interface Harness {
  connect(handlers?: ClientHandlers): Promise<AcpClient>;
}

/** One agent process per test over stdio (each connect spawns one). */
function stdioHarness(): Harness {
  return {
    async connect(handlers = {}) {
      const [command, args] = sampleAgentCommand();
      const agent: SpawnedAgent = spawnAgent(command, args, { stderr: "pipe" });
      cleanups.push(() => agent.shutdown());
      const client = await connectToAgent(agent.transport, { info: INFO, handlers });
      cleanups.push(() => client.close());
      return client;
    },
  };
}

/** One WebSocket agent process per test; each connect opens a socket to it. */
function wsHarness(): Harness & { server(): Promise<WsAgent> } {
  let server: WsAgent | undefined;
  const get = async () => (server ??= await startSampleWsAgent());
  afterEach(() => {
    server = undefined;
  });
  return {
    server: get,
    async connect(handlers = {}) {
      const { url } = await get();
      const transport = await connectWebSocket(url);
      const client = await connectToAgent(transport, { info: INFO, handlers });
      cleanups.push(() => client.close());
      return client;
    },
  };
}

function lastAgentText(session: ClientSession): string {
  const message = [...session.store.getSnapshot().messages.agent.values()].at(-1);
  return (message?.content ?? []).map((b) => (b.type === "text" ? b.text : "")).join("");
}

function waitForTerminalOutput(session: ClientSession): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      const terminal = [...session.store.getSnapshot().terminals.values()][0];
      if (terminal && terminal.output.length > 0) {
        stop();
        resolve();
      }
    };
    const stop = session.store.subscribe(check);
    check();
  });
}

describe.each([
  ["stdio", stdioHarness],
  ["websocket", wsHarness],
] as const)("our client × the built sample agent over %s", (_name, makeHarness) => {
  const harness = makeHarness();

  it("runs a full turn with every kind of update", async () => {
    const client = await harness.connect(answer("allow_once"));
    const session = await client.newSession({ cwd: CWD });
    const turn = session.prompt("show me everything");
    expect(typeof (await turn.messageId)).toBe("string");
    expect((await turn.done).stopReason).toBe("end_turn");
    const snapshot = session.store.getSnapshot();
    expect(snapshot.timeline.map((e) => e.type)).toEqual([
      "message",
      "message",
      "plan",
      "tool_call",
      "tool_call",
      "terminal",
      "tool_call",
      "message",
    ]);
    expect([...snapshot.toolCalls.values()].map((c) => [c.kind, c.status])).toEqual([
      ["read", "completed"],
      ["edit", "completed"],
      ["execute", "completed"],
    ]);
    expect(snapshot.info.title).toBe("show me everything");
    expect(snapshot.usage?.used).toBe(4200);
  });

  it("cancels a running turn: stop reason cancelled, its tool call cancelled, the session usable again", async () => {
    const client = await harness.connect();
    const session = await client.newSession({ cwd: CWD });
    const turn = session.prompt("/slow 30");
    await waitForTerminalOutput(session);
    await turn.cancel();
    expect((await turn.done).stopReason).toBe("cancelled");
    const call = [...session.store.getSnapshot().toolCalls.values()][0];
    expect(call?.status).toBe("cancelled");
    expect((await session.prompt("/help").done).stopReason).toBe("end_turn");
  });

  it("reports a failing turn with the error stop reason and its error", async () => {
    const client = await harness.connect();
    const session = await client.newSession({ cwd: CWD });
    const result = await session.prompt("/fail").done;
    expect(result.stopReason).toBe("error");
    expect(result.error).toMatchObject({ code: -32099, message: "The /fail command failed on purpose" });
  });

  it("allowed permission: the edit happens; denied: it fails and the tests do not run", async () => {
    const allowing = await harness.connect(answer("allow_once"));
    const allowed = await allowing.newSession({ cwd: CWD });
    await allowed.prompt("edit").done;
    expect([...allowed.store.getSnapshot().toolCalls.values()][1]?.status).toBe("completed");

    const denying = await harness.connect(answer("reject_once"));
    const denied = await denying.newSession({ cwd: CWD });
    expect((await denied.prompt("edit").done).stopReason).toBe("end_turn");
    const calls = [...denied.store.getSnapshot().toolCalls.values()];
    expect(calls.map((c) => c.status)).toEqual(["completed", "failed"]);
    expect(lastAgentText(denied)).toContain("unchanged");
  });

  it("config changes: the mode decides whether to ask, the model the wording; bad values are refused", async () => {
    let asked = 0;
    const client = await harness.connect({
      requestPermission: () => {
        asked++;
        return { outcome: { outcome: "selected", optionId: "allow_once" } };
      },
    });
    const session = await client.newSession({ cwd: CWD });
    const response = await session.setConfigOption("mode", "auto");
    expect(response.configOptions.map((o) => (o as { currentValue: unknown }).currentValue)).toEqual(["auto", "plain"]);
    await session.setConfigOption("model", "pirate");
    await session.prompt("go").done;
    expect(asked).toBe(0);
    expect(lastAgentText(session)).toMatch(/^Aye/);
    const refused = await session.setConfigOption("model", "gpt-9").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RequestError);
    expect((refused as RequestError).code).toBe(-32602);
    await session.setConfigOption("mode", "ask");
    await session.prompt("again").done;
    expect(asked).toBe(1);
  });
});

describe("resume with replay after a dropped WebSocket", () => {
  const harness = wsHarness();
  let proxy: TcpProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  it("rebuilds the same store as an uninterrupted client that stopped at the same point", async () => {
    const server = await harness.server();

    // Uninterrupted: a full turn, then a turn the user cancels at the permission prompt.
    const reference = await harness.connect({
      requestPermission: (request, ctx) => {
        if (request.title.startsWith("Allow editing") && referenceSecondTurn) void ctx.session?.cancel();
        return new Promise((resolve) =>
          referenceSecondTurn
            ? ctx.signal.addEventListener("abort", () => resolve({ outcome: { outcome: "cancelled" } }))
            : resolve({ outcome: { outcome: "selected", optionId: "allow_once" } }),
        );
      },
    });
    let referenceSecondTurn = false;
    const referenceSession = await reference.newSession({ cwd: CWD });
    await referenceSession.prompt("first").done;
    referenceSecondTurn = true;
    expect((await referenceSession.prompt("second").done).stopReason).toBe("cancelled");
    const expected = normalizeSnapshot(referenceSession.store.getSnapshot());

    // Interrupted: the same two turns through a proxy whose sockets die at the second permission prompt.
    proxy = await startTcpProxy(server.port);
    let droppedSecondTurn = false;
    const transport = await connectWebSocket(`ws://127.0.0.1:${proxy.port}/acp`);
    const dropped = await connectToAgent(transport, {
      info: INFO,
      handlers: {
        requestPermission: (_request, ctx) => {
          if (!droppedSecondTurn) return { outcome: { outcome: "selected", optionId: "allow_once" } };
          proxy?.cut();
          return new Promise((resolve) =>
            ctx.signal.addEventListener("abort", () => resolve({ outcome: { outcome: "cancelled" } })),
          );
        },
      },
    });
    cleanups.push(() => dropped.close());
    const session = await dropped.newSession({ cwd: CWD });
    await session.prompt("first").done;
    droppedSecondTurn = true;
    const lost = await session.prompt("second").done.catch((error: unknown) => error);
    expect((lost as Error).name).toBe("ConnectionError");
    expect(await dropped.closed).toBeDefined();

    // Reconnect, resume with replay into the store the UI kept, compare.
    const again = await harness.connect();
    const resumed = await again.resumeSession(session.sessionId, { cwd: CWD, replay: true, store: session.store });
    expect(resumed.store).toBe(session.store);
    // Exactly the same: the turn the dropped socket cut off ended like the one the user cancelled
    // (its unfinished edit `cancelled`, the resume snapshot repeating the `cancelled` stop reason).
    expect(normalizeSnapshot(resumed.store.getSnapshot())).toEqual(expected);

    // The resumed session keeps working like the uninterrupted one.
    await setAuto(referenceSession);
    await setAuto(resumed);
    await referenceSession.prompt("third").done;
    await resumed.prompt("third").done;
    expect(normalizeSnapshot(resumed.store.getSnapshot())).toEqual(
      normalizeSnapshot(referenceSession.store.getSnapshot()),
    );
  });
});

describe("resume with replay after a socket dropped while output streams", () => {
  const harness = wsHarness();
  let proxy: TcpProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  it("replays everything the client had seen, unchanged, and the turn no longer runs", async () => {
    const server = await harness.server();
    proxy = await startTcpProxy(server.port);
    const dropped = await connectToAgent(await connectWebSocket(`ws://127.0.0.1:${proxy.port}/acp`), { info: INFO });
    cleanups.push(() => dropped.close());
    const session = await dropped.newSession({ cwd: CWD });
    const turn = session.prompt("/slow 30");
    await new Promise<void>((resolve) => {
      const stop = session.store.subscribe(() => {
        const terminal = [...session.store.getSnapshot().terminals.values()][0];
        if (terminal && new TextDecoder().decode(terminal.output).includes("tick 3/")) {
          stop();
          resolve();
        }
      });
    });
    proxy.cut();
    await turn.done.catch(() => {});
    const seen = session.store.getSnapshot();

    const again = await harness.connect();
    const resumed = await again.resumeSession(session.sessionId, { cwd: CWD, replay: true });
    const replayed = resumed.store.getSnapshot();
    expect(replayed.state.state).toBe("idle");
    // The cut-off turn ended as a cancelled one would have: its stop reason, its command's call
    // cancelled, and its terminal interrupted and no longer offering cancel.
    expect(replayed.state.stopReason).toBe("cancelled");
    expect([...replayed.toolCalls.values()].map((c) => c.status)).toEqual(["cancelled"]);
    expect([...replayed.terminals.values()].map((t) => [t.exitStatus, t.capabilities?.cancel])).toEqual([
      [{ signal: "SIGINT" }, undefined],
    ]);
    expect(replayed.messages.user).toEqual(seen.messages.user);
    expect(replayed.messages.agent).toEqual(seen.messages.agent);
    const before = [...seen.terminals.values()][0];
    const after = replayed.terminals.get(before?.terminalId ?? "");
    const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);
    // The agent may have written a line or two the dropped socket never delivered.
    expect(text(after?.output).startsWith(text(before?.output))).toBe(true);
    expect(replayed.timeline.map((e) => e.type)).toEqual(seen.timeline.map((e) => e.type));
    // The session is usable again from the new connection.
    expect((await resumed.prompt("/help").done).stopReason).toBe("end_turn");
  });
});

async function setAuto(session: ClientSession): Promise<void> {
  await session.setConfigOption("mode", "auto");
}

describe("clean shutdown", () => {
  it("stdio: closing the client ends the agent by itself (stdin closed, exit 0, no signal)", async () => {
    const [command, args] = sampleAgentCommand();
    const agent = spawnAgent(command, args, { stderr: "pipe", shutdown: { stdinGraceMs: 3000 } });
    const client = await connectToAgent(agent.transport, { info: INFO });
    const session = await client.newSession({ cwd: CWD });
    const turn = session.prompt("/slow 30");
    await waitForTerminalOutput(session);
    await client.close();
    expect(await agent.shutdown()).toEqual({ code: 0, signal: null });
    expect(await waitForExit(agent.child.pid as number, 1000)).toBe(true);
    await turn.done.catch(() => {});
  });

  it("websocket: SIGTERM closes the server and its connections, exit 0, port released", async () => {
    const server = await startSampleWsAgent();
    const transport = await connectWebSocket(server.url);
    const client = await connectToAgent(transport, { info: INFO });
    await client.newSession({ cwd: CWD });
    server.process.child.kill("SIGTERM");
    expect((await server.process.exited).code).toBe(0);
    expect(await client.closed).toBeDefined();
    const refused = await connectWebSocket(server.url, { handshakeTimeoutMs: 2000 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Error);
  });
});
