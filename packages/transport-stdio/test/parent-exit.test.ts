import { spawn } from "node:child_process";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fixture, isAlive, packageDir } from "./support.js";

const orphans: number[] = [];
afterEach(() => {
  for (const pid of orphans.splice(0)) {
    if (isAlive(pid)) process.kill(pid, "SIGKILL");
  }
});

/** Runs a client that spawns an agent, returns the agent's pid and how the client ended. */
async function runClient(how: "exit" | "throw" | "sigterm") {
  const client = spawn(process.execPath, ["--import", "tsx", fixture("parent-of-stubborn.mjs"), how], {
    cwd: packageDir,
    env: { ...process.env, TSX_TSCONFIG_PATH: fixture("tsconfig.json") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const clientExit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    client.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const agentPid = await new Promise<number>((resolve, reject) => {
    let out = "";
    client.stdout.setEncoding("utf8");
    client.stdout.on("data", (text: string) => {
      out += text;
      const line = out.split("\n")[0];
      if (out.includes("\n") && line) {
        const pid = Number(line);
        orphans.push(pid);
        resolve(pid);
      }
    });
    void clientExit.then(() => reject(new Error(`client exited before printing the agent pid: ${out}`)));
  });
  if (how === "sigterm") client.kill("SIGTERM");
  return { agentPid, clientExit: await clientExit };
}

/** Polls until the process `pid` is gone, for at most `timeoutMs`; says whether it is. */
async function waitForDeath(pid: number, timeoutMs: number): Promise<boolean> {
  await vi
    .waitFor(
      () => {
        if (isAlive(pid)) throw new Error(`process ${pid} is still alive`);
      },
      { timeout: timeoutMs, interval: 25 },
    )
    .catch(() => undefined);
  return !isAlive(pid);
}

describe("no orphaned agents", () => {
  it.each(["exit", "throw"] as const)("kills the agent when the client process ends (%s)", async (how) => {
    const { agentPid, clientExit } = await runClient(how);
    expect(clientExit.code).toBe(1);
    expect(await waitForDeath(agentPid, 2000)).toBe(true);
  });

  it("kills the agent and still dies by the signal when the client gets SIGTERM", async () => {
    const { agentPid, clientExit } = await runClient("sigterm");
    expect(clientExit.signal).toBe("SIGTERM");
    expect(await waitForDeath(agentPid, 2000)).toBe(true);
  });
});
