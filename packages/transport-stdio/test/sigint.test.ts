/**
 * Ctrl-C in a terminal reaches every process of the foreground group: a client CLI and the
 * stdio agent it drives through pipes. The agent leaves it to the client: a real agent process
 * sent SIGINT mid-turn stays alive, its turn ends when the client cancels it, and stdin's end
 * (or SIGTERM) still ends the process.
 */
import { Connection } from "@acp-kit/protocol/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import { ignoresSigint } from "../src/stdio-transport.js";
import { killAllSpawned, spawnSourceFixture } from "./support.js";

afterEach(killAllSpawned);

/** A sigint-agent with a turn running (its `turn/started` seen), and the turn's answer. */
async function midTurn(mode?: string) {
  const agent = spawnSourceFixture("sigint-agent.mjs", {
    env: mode === undefined ? {} : { SIGINT_MODE: mode },
    shutdown: { stdinGraceMs: 10_000, termGraceMs: 10_000 },
  });
  const connection = new Connection(agent.transport);
  let started!: () => void;
  const turnStarted = new Promise<void>((resolve) => (started = resolve));
  connection.onNotification("turn/started", () => started());
  connection.listen();
  const turn = connection.request("_acpkit/turn", {});
  turn.catch(() => {});
  await turnStarted;
  return { agent, connection, turn };
}

describe("SIGINT to a stdio agent driven through pipes", () => {
  it("is ignored mid-turn: the turn ends on the client's cancel, then stdin's end ends the process", async () => {
    const { agent, connection, turn } = await midTurn();
    agent.kill("SIGINT");
    await expect.poll(() => agent.stderrTail().join("\n"), { timeout: 10_000 }).toContain("SIGINT ignored");
    await expect(connection.request("_acpkit/ping", {})).resolves.toBe("pong");
    await connection.notify("_acpkit/cancel", {});
    await expect(turn).resolves.toEqual({ stopReason: "cancelled" });
    agent.child.stdin.end();
    expect(await agent.exited).toEqual({ code: 0, signal: null });
    expect(agent.stderrTail()).toContain("sigint-agent: connection closed");
  });

  it("SIGTERM still ends it", async () => {
    const { agent } = await midTurn();
    agent.kill("SIGTERM");
    expect(await agent.exited).toEqual({ code: null, signal: "SIGTERM" });
  });

  it('with `sigint: "default"`, SIGINT ends it as Node does', async () => {
    const { agent } = await midTurn("default");
    agent.kill("SIGINT");
    expect(await agent.exited).toEqual({ code: null, signal: "SIGINT" });
  });

  it.each([
    ["auto", false, true],
    ["auto", true, false],
    ["ignore", true, true],
    ["default", false, false],
  ] as const)("sigint %s with stdin a TTY: %s → ignored: %s", (mode, tty, ignored) => {
    expect(ignoresSigint(mode, tty)).toBe(ignored);
  });
});
