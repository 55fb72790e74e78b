// Our client (`connectToAgent` over `spawnAgent`) driving one real agent: each cell a fresh
// agent process in its own working directory, judged on what the client and its store show.
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type AcpClient, connectToAgent, selectPermissionOption, type TimelineEntry, textOf } from "@acp-kit/client";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { spawnAgent } from "@acp-kit/transport-stdio";
import { AFTER_TOOL_REPLY, PROMPTS, TEXT_REPLY, TOOL_CONTENT } from "./mock-script.js";
import type { AgentPeer, AgentPlace } from "./peers.js";
import type { CellResult } from "./report.js";
import { WireTap } from "./wire-tap.js";

/** The longest any one cell may take; a real agent on a loopback mock needs a few seconds. */
const CELL_DEADLINE_MS = 90_000;
/** A cancel must settle the turn within this, measured from `turn.cancel()`. */
const CANCEL_WITHIN_MS = 5_000;

export interface AgentRun {
  peer: AgentPeer;
  bin: string;
  place: (name: string) => AgentPlace;
}

interface Connected {
  client: AcpClient;
  tap: WireTap;
  stderr: () => string[];
  place: AgentPlace;
  dispose: () => Promise<void>;
}

async function connect(
  run: AgentRun,
  place: AgentPlace,
  permission: "allow_once" | "reject_once" = "allow_once",
): Promise<Connected & { asked: number[] }> {
  const env = run.peer.prepare(place);
  const agent = spawnAgent(run.bin, run.peer.args, {
    cwd: place.cwd,
    env: { PATH: process.env.PATH ?? "", LANG: "C.UTF-8", TMPDIR: join(place.home, "tmp"), ...env },
    stderr: "pipe",
    stderrTailLines: 40,
  });
  mkdirSync(join(place.home, "tmp"), { recursive: true });
  const tap = new WireTap(agent.transport);
  const asked: number[] = [];
  try {
    const client = await connectToAgent(tap, {
      info: { name: "acp-kit-compat", version: "0.0.0" },
      signal: AbortSignal.timeout(60_000),
      handlers: {
        requestPermission: (request) => {
          asked.push(tap.messages.length);
          return selectPermissionOption(request, permission);
        },
      },
    });
    return {
      client,
      tap,
      asked,
      place,
      stderr: () => agent.stderrTail(),
      dispose: async () => {
        await client.close().catch(() => {});
        await agent.shutdown();
      },
    };
  } catch (error) {
    await agent.shutdown();
    throw withStderr(error, agent.stderrTail());
  }
}

function withStderr(error: unknown, tail: string[]): Error {
  const details = (error as { data?: { details?: unknown } } | undefined)?.data?.details;
  const base = error instanceof Error ? error.message : String(error);
  const message = typeof details === "string" ? `${base}: ${details}` : base;
  const last = tail.filter((line) => line.trim().length > 0).at(-1);
  return new Error(last === undefined ? message : `${message} (stderr: ${last.trim().slice(0, 160)})`);
}

/** Runs `body` against a fresh agent, bounded by the cell deadline; any throw is the cell's failure. */
async function cell(
  run: AgentRun,
  name: string,
  body: (c: Connected & { asked: number[] }) => Promise<CellResult>,
  permission?: "allow_once" | "reject_once",
): Promise<CellResult> {
  const place = run.place(name);
  let connected: (Connected & { asked: number[] }) | undefined;
  const started = Date.now();
  try {
    connected = await connect(run, place, permission);
    const c = connected;
    const deadline = new Promise<never>((_, reject) => {
      setTimeout(() => reject(new Error(`no result within ${CELL_DEADLINE_MS / 1000} s`)), CELL_DEADLINE_MS).unref();
    });
    const result = await Promise.race([body(c), deadline]);
    return { ...result, ms: Date.now() - started };
  } catch (error) {
    const reason = connected
      ? withStderr(error, connected.stderr()).message
      : error instanceof Error
        ? error.message
        : String(error);
    return { status: "fail", detail: oneLine(reason), ms: Date.now() - started };
  } finally {
    await connected?.dispose();
  }
}

export function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 197)}...` : flat;
}

const pass = (detail: string): CellResult => ({ status: "pass", detail });
const fail = (detail: string): CellResult => ({ status: "fail", detail });
const skip = (detail: string): CellResult => ({ status: "skip", detail });

function agentTexts(timeline: readonly TimelineEntry[]): { index: number; text: string }[] {
  return timeline.flatMap((entry, index) =>
    entry.type === "message" && entry.kind === "agent" ? [{ index, text: textOf(entry.content) }] : [],
  );
}

async function collect(turn: AsyncIterable<SessionUpdate>): Promise<SessionUpdate[]> {
  const updates: SessionUpdate[] = [];
  for await (const update of turn) updates.push(update);
  return updates;
}

/** The raw v1 `initialize` answer and what it advertises for resuming. */
function advertisedResume(tap: WireTap): string | undefined {
  const result = tap.resultOf("initialize");
  const caps = (result?.agentCapabilities ?? {}) as {
    loadSession?: boolean;
    sessionCapabilities?: { resume?: unknown };
  };
  if (caps.sessionCapabilities?.resume != null) return "sessionCapabilities.resume";
  if (caps.loadSession === true) return "loadSession";
  return undefined;
}

export async function initializeCell(run: AgentRun): Promise<CellResult> {
  return cell(run, "initialize", async ({ client, tap }) => {
    const raw = tap.resultOf("initialize");
    const info = raw?.agentInfo as { name?: string; version?: string } | undefined;
    if (client.protocolVersion !== 1) return fail(`negotiated protocol version ${client.protocolVersion}, expected 1`);
    if (client.agentInfo.name !== info?.name) return fail(`agentInfo ${info?.name} read as ${client.agentInfo.name}`);
    return pass(`v1, agentInfo ${info?.name} ${info?.version ?? ""}`.trim());
  });
}

/** Without credentials a real agent refuses `session/new`; the client reports it as the agent's error. */
export async function authRefusalCell(run: AgentRun): Promise<CellResult> {
  return cell(run, "auth-refusal", async ({ client, place }) => {
    try {
      await client.newSession({ cwd: place.cwd });
      return fail("session/new succeeded without credentials");
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const message = error instanceof Error ? error.message : String(error);
      if (typeof code !== "number") return fail(`not a request error: ${message}`);
      const methods = client.authMethods.map((m) => m.methodId).join(", ");
      return pass(`refused ${code} "${oneLine(message).slice(0, 80)}"; auth methods: ${methods || "none"}`);
    }
  });
}

export async function turnCell(run: AgentRun): Promise<CellResult> {
  return cell(run, "turn", async ({ client, place }) => {
    const session = await client.newSession({ cwd: place.cwd });
    const turn = session.prompt(PROMPTS.text);
    await collect(turn);
    const done = await turn.done;
    if (done.stopReason !== "end_turn") return fail(`stop reason ${done.stopReason ?? "none"}`);
    const texts = agentTexts(session.store.getSnapshot().timeline);
    if (!texts.some((t) => t.text.includes(TEXT_REPLY))) {
      return fail(`the reply is not one message: ${JSON.stringify(texts.map((t) => t.text))}`);
    }
    return pass(`end_turn, one agent message "${TEXT_REPLY}"`);
  });
}

export async function toolAllowedCell(run: AgentRun): Promise<CellResult> {
  return cell(
    run,
    "tool-allowed",
    async ({ client, place, asked }) => {
      const target = join(place.cwd, "compat-note.txt");
      const session = await client.newSession({ cwd: place.cwd });
      const turn = session.prompt(PROMPTS.tool(target));
      await collect(turn);
      const done = await turn.done;
      if (asked.length === 0) return fail("no permission was asked");
      if (!existsSync(target) || readFileSync(target, "utf8") !== TOOL_CONTENT) return fail("the file was not written");
      const timeline = session.store.getSnapshot().timeline;
      const toolIndex = timeline.findIndex((e) => e.type === "tool_call");
      const tool = timeline[toolIndex];
      if (tool?.type !== "tool_call") return fail("no tool call in the store");
      if (tool.status !== "completed") return fail(`the tool call is ${tool.status} in the store`);
      if (!agentTexts(timeline).some((t) => t.index > toolIndex && t.text.includes(AFTER_TOOL_REPLY))) {
        return fail(`no "${AFTER_TOOL_REPLY}" after the tool call in the store`);
      }
      if (done.stopReason !== "end_turn") return fail(`stop reason ${done.stopReason ?? "none"}`);
      return pass("asked, allowed, file written, tool completed, reply after it");
    },
    "allow_once",
  );
}

export async function toolRejectedCell(run: AgentRun): Promise<CellResult> {
  return cell(
    run,
    "tool-rejected",
    async ({ client, place, asked, tap }) => {
      const target = join(place.cwd, "compat-note.txt");
      const session = await client.newSession({ cwd: place.cwd });
      const turn = session.prompt(PROMPTS.tool(target));
      await collect(turn);
      const done = await turn.done;
      if (asked.length === 0) return fail("no permission was asked");
      if (existsSync(target)) return fail("the file was written although the permission was rejected");
      const timeline = session.store.getSnapshot().timeline;
      const toolIndex = timeline.findIndex((e) => e.type === "tool_call");
      const tool = timeline[toolIndex];
      if (tool?.type === "tool_call" && tool.status === "completed")
        return fail("the rejected tool call is completed in the store");
      // Whatever the agent said after the rejection must be in the store, after the tool call.
      const said = textAfter(tap, asked[0] ?? 0);
      if (said.trim().length > 0) {
        const after = agentTexts(timeline)
          .filter((t) => t.index > toolIndex)
          .map((t) => t.text)
          .join("");
        if (!after.includes(said.trim()))
          return fail(
            `"${oneLine(said).slice(0, 60)}" was sent after the rejection but is not after the tool call in the store`,
          );
      }
      return pass(
        `asked, rejected, file untouched, tool ${tool?.type === "tool_call" ? tool.status : "absent"}, stop reason ${done.stopReason ?? "none"}`,
      );
    },
    "reject_once",
  );
}

/** The agent message text the agent sent after wire position `from`. */
function textAfter(tap: WireTap, from: number): string {
  return tap.messages
    .slice(from)
    .filter((m) => m.direction === "in" && m.value.method === "session/update")
    .map(
      (m) =>
        (m.value.params as { update?: { sessionUpdate?: string; content?: { type?: string; text?: string } } }).update,
    )
    .filter((u) => u?.sessionUpdate === "agent_message_chunk" && u.content?.type === "text")
    .map((u) => u?.content?.text ?? "")
    .join("");
}

export async function cancelCell(run: AgentRun): Promise<CellResult> {
  return cell(run, "cancel", async ({ client, place }) => {
    const session = await client.newSession({ cwd: place.cwd });
    const turn = session.prompt(PROMPTS.slow);
    let cancelledAt = 0;
    for await (const update of turn) {
      if (update.sessionUpdate === "agent_message_chunk" && cancelledAt === 0) {
        cancelledAt = Date.now();
        void turn.cancel();
      }
    }
    const done = await turn.done;
    const took = Date.now() - cancelledAt;
    if (cancelledAt === 0) return fail(`the slow reply never streamed (stop reason ${done.stopReason ?? "none"})`);
    if (done.stopReason !== "cancelled") return fail(`stop reason ${done.stopReason ?? "none"} after cancel`);
    if (took > CANCEL_WITHIN_MS) return fail(`cancelled after ${took} ms`);
    return pass(`cancelled in ${took} ms`);
  });
}

/** A session started by one agent process, resumed by a second one with replay. */
export async function resumeCell(run: AgentRun): Promise<CellResult> {
  let sessionId: string | undefined;
  let advertised: string | undefined;
  const first = await cell(run, "resume", async ({ client, place, tap }) => {
    advertised = advertisedResume(tap);
    if (advertised === undefined)
      return skip("the agent advertises neither loadSession nor sessionCapabilities.resume");
    const session = await client.newSession({ cwd: place.cwd });
    const turn = session.prompt(PROMPTS.text);
    await collect(turn);
    await turn.done;
    sessionId = session.sessionId;
    return pass("first turn");
  });
  if (first.status !== "pass" || sessionId === undefined) return first;
  const id = sessionId;
  return cell(run, "resume", async ({ client, tap }) => {
    const cwd = run.place("resume").cwd;
    const session = await client.resumeSession(id, { cwd, replay: true });
    const texts = agentTexts(session.store.getSnapshot().timeline);
    if (!texts.some((t) => t.text.includes(TEXT_REPLY))) {
      const sent = tap.messages.filter(
        (m) => m.direction === "out" && typeof m.value.method === "string" && m.value.method !== "initialize",
      );
      const replayed = tap.messages.filter((m) => m.direction === "in" && m.value.method === "session/update").length;
      const methods = sent.map((m) => m.value.method).join(", ");
      return fail(`the replay did not restore the reply (sent ${methods}; ${replayed} updates came back)`);
    }
    return pass(`resumed in a new process via ${advertised}, the replay restored the reply`);
  });
}

/** A fresh place per cell name, under one run directory. */
export function placer(
  root: string,
  peer: AgentPeer,
  mockOrigin: string | undefined,
  cache: string,
): (name: string) => AgentPlace {
  const made = new Map<string, AgentPlace>();
  return (name) => {
    const existing = made.get(name);
    if (existing) return existing;
    const base = mkdtempSync(join(root, `${peer.id}-${name}-`));
    const place = { home: join(base, "home"), cwd: join(base, "work"), mockOrigin, cacheRoot: cache };
    mkdirSync(place.home, { recursive: true });
    mkdirSync(place.cwd, { recursive: true });
    made.set(name, place);
    return place;
  };
}
