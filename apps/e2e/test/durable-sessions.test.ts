/**
 * Sessions that outlive their agent process, with the BUILT sample agent:
 * - file store: the agent is killed (SIGKILL) while idle, restarted on the same --data-dir, and
 *   the client resumes with replay;
 * - PostgreSQL fleet: two instances on one database behind a loopback balancer; the instance
 *   that ran the turn is killed, the client reconnects through the balancer to the other one and
 *   resumes with replay; while the first is alive, the second refuses the session clearly.
 * In both, the client's store after the resume equals an uninterrupted run's, and a further turn
 * keeps them equal.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AcpClient, type ClientSession, connectToAgent, RequestError } from "@acp-kit/client";
import { connectWebSocket } from "@acp-kit/transport-ws/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  assertBuilt,
  createTestSchema,
  normalizeSnapshot,
  SAMPLE_AGENT_BIN,
  SAMPLE_CLIENT_BIN,
  startProcess,
  startSampleWsAgent,
  startTcpBalancer,
  stopAllProcesses,
  type TcpBalancer,
  type TestSchema,
  type WsAgent,
} from "../src/index.js";

beforeAll(() => assertBuilt());
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  await stopAllProcesses();
});

const INFO = { name: "e2e", version: "0" };
const CWD = "/work/project";
const PG_URL = process.env.ACP_KIT_PG_URL;
const IN_CI = process.env.CI === "true" || process.env.CI === "1";
const skipPostgres = (PG_URL === undefined || PG_URL === "") && !IN_CI;
if (skipPostgres)
  process.stderr.write(
    "\n!!! ACP_KIT_PG_URL is not set: the PostgreSQL fleet e2e test is SKIPPED (install PostgreSQL: apt-get install postgresql, then npm test starts a throwaway cluster).\n\n",
  );

async function connect(port: number): Promise<AcpClient> {
  const transport = await connectWebSocket(`ws://127.0.0.1:${port}/acp`);
  const client = await connectToAgent(transport, { info: INFO });
  cleanups.push(() => client.close());
  return client;
}

async function killHard(agent: WsAgent): Promise<void> {
  agent.process.child.kill("SIGKILL");
  await agent.process.exited;
}

/** The uninterrupted run: one in-memory agent, the same turns on one connection. */
async function reference(turns: string[]): Promise<unknown[]> {
  const agent = await startSampleWsAgent(["--mode", "auto"]);
  const client = await connect(agent.port);
  const session = await client.newSession({ cwd: CWD });
  const snapshots: unknown[] = [];
  for (const text of turns) {
    await session.prompt(text).done;
    snapshots.push(normalizeSnapshot(session.store.getSnapshot()));
  }
  await agent.stop();
  return snapshots;
}

async function turn(session: ClientSession, text: string): Promise<unknown> {
  expect((await session.prompt(text).done).stopReason).toBe("end_turn");
  return normalizeSnapshot(session.store.getSnapshot());
}

describe("file store: an agent restarted on its --data-dir", () => {
  const dir = mkdtempSync(join(tmpdir(), "acp-e2e-data-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("resumes a session with replay after kill -9 while idle, equal to an uninterrupted run", async () => {
    const [afterFirst, afterSecond] = await reference(["first", "second"]);
    const args = ["--mode", "auto", "--data-dir", dir];

    const before = await startSampleWsAgent(args);
    const session = await (await connect(before.port)).newSession({ cwd: CWD });
    expect(await turn(session, "first")).toEqual(afterFirst);
    await killHard(before);

    const after = await startSampleWsAgent(args);
    const client = await connect(after.port);
    const resumed = await client.resumeSession(session.sessionId, { cwd: CWD, replay: true });
    expect(normalizeSnapshot(resumed.store.getSnapshot())).toEqual(afterFirst);
    expect(await turn(resumed, "second")).toEqual(afterSecond);
    const listed = await client.listSessions({ cwd: CWD });
    expect(listed.sessions.map((s) => s.sessionId)).toEqual([session.sessionId]);
  });
});

describe("the sample client resuming a session of a restarted sample agent", () => {
  const dir = mkdtempSync(join(tmpdir(), "acp-e2e-cli-data-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // Each client run spawns its own agent process over stdio: every run is a restart.
  const run = async (...args: string[]) => {
    const agent = ["--", process.execPath, SAMPLE_AGENT_BIN, "--pace", "0", "--data-dir", dir];
    const p = startProcess(process.execPath, [SAMPLE_CLIENT_BIN, "--no-color", "--yes", ...args, ...agent]);
    const { code } = await p.exited;
    return { code, out: p.stdout(), err: p.stderr() };
  };

  it("--resume replays the history between markers; --resume-policy decides what a failed resume does", async () => {
    const first = await run("--cwd", "/tmp/demo", "--json", "--prompt", "first prompt");
    expect(first.code).toBe(0);
    const sessionId = /"sessionId":"(sess_[^"]+)"/.exec(first.out)?.[1] as string;
    expect(sessionId).toBeDefined();

    const second = await run("--cwd", "/tmp/demo", "--resume", sessionId, "--prompt", "/help");
    expect(second.code).toBe(0);
    const start = second.out.indexOf("┄┄ replayed history ┄┄");
    const end = second.out.indexOf("┄┄ end of replayed history ┄┄");
    expect(start).toBeGreaterThan(second.out.indexOf(`session ${sessionId}`));
    expect(second.out.indexOf("› first prompt")).toBeGreaterThan(start);
    expect(second.out.indexOf("✔ Run npm test (execute, completed)")).toBeLessThan(end);
    expect(second.out.indexOf("› /help")).toBeGreaterThan(end);

    const unknown = await run("--cwd", "/tmp/demo", "--resume", "sess_gone", "--prompt", "/help");
    expect(unknown.code).toBe(0);
    expect(unknown.out).toContain(
      "· Session sess_gone could not be resumed (the agent does not know it); started a new session",
    );
    expect(unknown.out).not.toContain("replayed history");

    const required = await run(
      "--cwd",
      "/tmp/other",
      "--resume",
      sessionId,
      "--resume-policy",
      "required",
      "--prompt",
      "x",
    );
    expect(required.code).toBe(1);
    expect(required.err).toContain(
      `Cannot resume session ${sessionId}: Session ${sessionId} belongs to /tmp/demo, not /tmp/other`,
    );
  });
});

describe.skipIf(skipPostgres)("PostgreSQL fleet: two instances behind a balancer", () => {
  let schema: TestSchema;
  let url: string;
  let balancer: TcpBalancer | undefined;

  beforeAll(async () => {
    schema = await createTestSchema(PG_URL, "acp_e2e");
    url = schema.url;
  });
  afterAll(async () => {
    await schema?.drop();
  });
  afterEach(async () => {
    await balancer?.close();
    balancer = undefined;
  });

  /** Waits until the instance's writes for the session are committed (its last stop is in the row). */
  async function committed(sessionId: string): Promise<void> {
    await expect
      .poll(
        async () =>
          (
            await schema.admin.query(
              `SELECT record->'lastStop' AS stop FROM ${schema.name}.acp_kit_sessions WHERE session_id = $1`,
              [sessionId],
            )
          ).rows[0]?.stop ?? null,
        { timeout: 5000, interval: 20 },
      )
      .not.toBeNull();
  }

  it("instance A runs a turn and is killed; through the balancer, B resumes with replay", async () => {
    const [afterFirst, afterSecond] = await reference(["first", "second"]);
    const args = ["--mode", "auto", "--postgres", url];
    const a = await startSampleWsAgent(args);
    const b = await startSampleWsAgent(args);
    balancer = await startTcpBalancer([a.port, b.port]);

    const first = await connect(balancer.port);
    expect(balancer.routes).toEqual([a.port]);
    const session = await first.newSession({ cwd: CWD });
    expect(await turn(session, "first")).toEqual(afterFirst);

    // While A has the session open, B refuses it, naming the holder.
    const direct = await connect(b.port);
    const refused = await direct.resumeSession(session.sessionId, { cwd: CWD, replay: true }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RequestError);
    expect((refused as RequestError).message).toMatch(/in use by another agent process \(held by acp-kit .+ pid \d+\)/);
    expect((refused as RequestError).data).toMatchObject({ reason: "session_busy" });

    await committed(session.sessionId);
    await killHard(a);
    const again = await connect(balancer.port);
    expect(balancer.routes.at(-1)).toBe(b.port);
    const resumed = await again.resumeSession(session.sessionId, { cwd: CWD, replay: true });
    expect(normalizeSnapshot(resumed.store.getSnapshot())).toEqual(afterFirst);
    expect(await turn(resumed, "second")).toEqual(afterSecond);

    // Any instance lists it, with the title the first turn gave it.
    const listed = await direct.listSessions({ cwd: CWD });
    expect(listed.sessions.map((s) => s.sessionId)).toEqual([session.sessionId]);
  });
});
