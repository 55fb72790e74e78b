// acpx (a real v1 client) driving our sample agent, one prompt each, non-interactively:
// `acpx --agent "<command>" [--approve-all|--deny-all] --format json exec "<prompt>"`. With
// `--format json` acpx prints every JSON-RPC frame of the session, which the cells read.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { oneLine } from "./client-cells.js";
import type { CellResult } from "./report.js";

const RUN_DEADLINE_MS = 60_000;

// v1's closed enums (schema/v1): what a v1 decoder accepts.
const V1_TOOL_STATUS = new Set(["pending", "in_progress", "completed", "failed"]);
const V1_PLAN_STATUS = new Set(["pending", "in_progress", "completed"]);

export interface AcpxRun {
  bin: string;
  agentCommand: string;
  root: string;
}

interface Outcome {
  frames: Record<string, unknown>[];
  code: number | null;
  signal: string | null;
  stderr: string;
  /** ms from the SIGINT to the exit, when one was sent */
  afterSignalMs: number | undefined;
}

/** Runs acpx in its own process group (as a terminal would); `interruptOnChunk` sends the group SIGINT at the first reply chunk. */
function runAcpx(run: AcpxRun, policy: string, prompt: string, interruptOnChunk = false): Promise<Outcome> {
  const base = mkdtempSync(join(run.root, "acpx-"));
  const home = join(base, "home");
  const cwd = join(base, "work");
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  const child = spawn(run.bin, ["--agent", run.agentCommand, policy, "--format", "json", "exec", prompt], {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: home, NO_COLOR: "1" },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  let signalledAt: number | undefined;
  child.stdout.setEncoding("utf8").on("data", (data: string) => {
    out += data;
    if (
      interruptOnChunk &&
      signalledAt === undefined &&
      out.includes('"agent_message_chunk"') &&
      child.pid !== undefined
    ) {
      signalledAt = Date.now();
      process.kill(-child.pid, "SIGINT");
    }
  });
  child.stderr.setEncoding("utf8").on("data", (data: string) => {
    if (err.length < 64 * 1024) err += data;
  });
  const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, "SIGKILL"), RUN_DEADLINE_MS);
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const frames = out.split("\n").flatMap((line) => {
        try {
          const value = JSON.parse(line) as unknown;
          return value !== null && typeof value === "object" ? [value as Record<string, unknown>] : [];
        } catch {
          return [];
        }
      });
      resolve({
        frames,
        code,
        signal,
        stderr: err,
        afterSignalMs: signalledAt === undefined ? undefined : Date.now() - signalledAt,
      });
    });
  });
}

function stopReason(frames: Record<string, unknown>[]): string | undefined {
  const prompt = frames.find((f) => f.method === "session/prompt");
  if (prompt === undefined) return undefined;
  const answer = frames.find((f) => f.id === prompt.id && !("method" in f));
  return (answer?.result as { stopReason?: string } | undefined)?.stopReason;
}

/** Values of the agent's updates that v1's closed enums do not allow. */
function v1EnumViolations(frames: Record<string, unknown>[]): string[] {
  const found = new Set<string>();
  for (const frame of frames) {
    if (frame.method !== "session/update") continue;
    const update = (frame.params as { update?: Record<string, unknown> } | undefined)?.update ?? {};
    const kind = update.sessionUpdate;
    if (
      (kind === "tool_call" || kind === "tool_call_update") &&
      update.status != null &&
      !V1_TOOL_STATUS.has(String(update.status))
    ) {
      found.add(`tool call status "${update.status}"`);
    }
    if (kind === "plan" && Array.isArray(update.entries)) {
      for (const entry of update.entries as { status?: string }[]) {
        if (entry.status != null && !V1_PLAN_STATUS.has(entry.status)) found.add(`plan entry status "${entry.status}"`);
      }
    }
  }
  return [...found];
}

function judge(outcome: Outcome, wanted: string): CellResult {
  const reason = stopReason(outcome.frames);
  const exit = outcome.signal ?? `exit ${outcome.code}`;
  if (reason === undefined) {
    const tail = outcome.stderr.trim().split("\n").at(-1) ?? "";
    return { status: "fail", detail: oneLine(`no session/prompt result (acpx ${exit})${tail ? `: ${tail}` : ""}`) };
  }
  if (reason !== wanted) return { status: "fail", detail: `stop reason ${reason}, expected ${wanted} (acpx ${exit})` };
  const violations = v1EnumViolations(outcome.frames);
  if (violations.length > 0)
    return { status: "fail", detail: `v2-only values on the v1 wire: ${violations.join(", ")} (acpx ${exit})` };
  return { status: "pass", detail: `stop reason ${reason}, every update within v1's enums (acpx ${exit})` };
}

export async function acpxTurnCell(run: AcpxRun): Promise<CellResult> {
  const started = Date.now();
  const outcome = await runAcpx(run, "--approve-all", "Say hello.");
  const result = judge(outcome, "end_turn");
  const asked = outcome.frames.some((f) => f.method === "session/request_permission");
  if (result.status === "pass" && !asked)
    return { status: "fail", detail: "the agent asked no permission", ms: Date.now() - started };
  return {
    ...result,
    detail: result.status === "pass" ? `permission allowed; ${result.detail}` : result.detail,
    ms: Date.now() - started,
  };
}

export async function acpxRejectedCell(run: AcpxRun): Promise<CellResult> {
  const started = Date.now();
  const outcome = await runAcpx(run, "--deny-all", "Say hello.");
  return { ...judge(outcome, "end_turn"), ms: Date.now() - started };
}

/** Ctrl-C in a terminal: SIGINT to acpx's process group, agent included; acpx then sends `session/cancel`. */
export async function acpxInterruptCell(run: AcpxRun): Promise<CellResult> {
  const started = Date.now();
  const outcome = await runAcpx(run, "--approve-all", "/slow 20", true);
  if (outcome.afterSignalMs === undefined)
    return { status: "fail", detail: "the slow reply never streamed", ms: Date.now() - started };
  const result = judge(outcome, "cancelled");
  return {
    ...result,
    detail: `${result.detail}; ended ${outcome.afterSignalMs} ms after SIGINT`,
    ms: Date.now() - started,
  };
}
