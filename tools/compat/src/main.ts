// `pnpm compat`: installs the pinned peers (first use only), runs every cell, writes
// docs/compat.md and .compat-out/latest.json, and exits 1 on a harness error or on a cell the
// expectations say must pass. Options: `--only id,id` (peers), `--no-docs` (leave docs/compat.md).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { acpxInterruptCell, acpxRejectedCell, acpxTurnCell } from "./acpx-cells.js";
import { CLI_BIN, checkCell } from "./check-cells.js";
import {
  type AgentRun,
  authRefusalCell,
  cancelCell,
  initializeCell,
  placer,
  resumeCell,
  toolAllowedCell,
  toolRejectedCell,
  turnCell,
} from "./client-cells.js";
import { EXPECTATIONS } from "./expectations.js";
import { cacheRoot, ensureInstalled } from "./install.js";
import { PROMPTS } from "./mock-script.js";
import { startMockServer } from "./mock-server.js";
import { AGENTS, type AgentPeer, CLIENTS } from "./peers.js";
import { type CellResult, type Row, verdict, writeJson, writeMarkdown } from "./report.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const sampleAgent = join(repoRoot, "apps/sample-agent/dist/bin.js");

const argv = process.argv.slice(2);
const onlyIndex = argv.indexOf("--only");
const only = onlyIndex >= 0 ? new Set((argv[onlyIndex + 1] ?? "").split(",")) : undefined;
const writeDocs = !argv.includes("--no-docs");
const selected = (id: string) => only === undefined || only.has(id);

const rows: Row[] = [];
function record(peer: { id: string; version: string }, role: Row["role"], cell: string, result: CellResult): void {
  const row: Row = {
    peer: peer.id,
    version: peer.version,
    role,
    cell,
    result,
    expectation: EXPECTATIONS[`${peer.id}/${cell}`],
  };
  rows.push(row);
  const seconds = result.ms === undefined ? "" : ` (${(result.ms / 1000).toFixed(1)} s)`;
  console.log(`${verdict(row).padEnd(13)} ${peer.id} ${cell}: ${result.status} ${result.detail}${seconds}`);
}

function checkAgentArgs(peer: AgentPeer, cwd: string): string[] {
  const turns = peer.mocked
    ? [
        "--prompt",
        PROMPTS.text,
        "--permission-prompt",
        PROMPTS.tool(join(cwd, "check-note.txt")),
        "--long-prompt",
        PROMPTS.slow,
      ]
    : [];
  return ["agent", "--json", "--timeout", "15000", "--cwd", cwd, ...turns, "--"];
}

async function runAgent(peer: AgentPeer, bin: string, root: string, mockOrigin: string): Promise<void> {
  const run: AgentRun = { peer, bin, place: placer(root, peer, peer.mocked ? mockOrigin : undefined, cacheRoot()) };
  record(peer, "agent", "initialize", await initializeCell(run));
  if (peer.mocked) {
    record(peer, "agent", "turn", await turnCell(run));
    record(peer, "agent", "tool-allowed", await toolAllowedCell(run));
    record(peer, "agent", "tool-rejected", await toolRejectedCell(run));
    record(peer, "agent", "cancel", await cancelCell(run));
    record(peer, "agent", "resume", await resumeCell(run));
  } else {
    record(peer, "agent", "auth-refusal", await authRefusalCell(run));
  }
  const place = run.place("check-agent");
  const env = { PATH: process.env.PATH ?? "", LANG: "C.UTF-8", ...peer.prepare(place) };
  record(
    peer,
    "agent",
    "check-agent",
    await checkCell({ args: [...checkAgentArgs(peer, place.cwd), bin, ...peer.args], cwd: place.cwd, env }),
  );
}

async function main(): Promise<number> {
  for (const built of [CLI_BIN, sampleAgent]) {
    if (!existsSync(built)) throw new Error(`${built} is missing: build first (pnpm compat builds what it needs)`);
  }
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const agents = AGENTS.filter((a) => selected(a.id));
  const clients = CLIENTS.filter((c) => selected(c.id));
  const installStarted = Date.now();
  const installed = await Promise.all([...agents, ...clients].map((p) => ensureInstalled(p.pkg, p.version, p.bin)));
  const installMs = Date.now() - installStarted;
  const bins = new Map([...agents, ...clients].map((p, i) => [p.id, installed[i]?.bin ?? ""]));
  console.log(`peers ready in ${(installMs / 1000).toFixed(1)} s (cache: ${cacheRoot()})`);

  mkdirSync(cacheRoot(), { recursive: true });
  const root = mkdtempSync(join(tmpdir(), "acp-kit-compat-"));
  const mock = await startMockServer(join(root, "mock-requests.log"));
  try {
    for (const peer of agents) await runAgent(peer, bins.get(peer.id) ?? "", root, mock.origin);
    for (const peer of clients) {
      const acpx = { bin: bins.get(peer.id) ?? "", agentCommand: `${process.execPath} ${sampleAgent}`, root };
      record(peer, "client", "turn", await acpxTurnCell(acpx));
      record(peer, "client", "permission-rejected", await acpxRejectedCell(acpx));
      record(peer, "client", "ctrl-c", await acpxInterruptCell(acpx));
      const cwd = mkdtempSync(join(root, "check-client-"));
      const env = { PATH: process.env.PATH ?? "", HOME: cwd, NO_COLOR: "1" };
      const clientCommand = [acpx.bin, "--approve-all", "--format", "json", "--agent={agent}", "exec", "Say hello."];
      record(
        peer,
        "client",
        "check-client",
        await checkCell({ args: ["client", "--json", "--timeout", "15000", "--", ...clientCommand], cwd, env }),
      );
    }
  } finally {
    await mock.close();
    rmSync(root, { recursive: true, force: true });
  }

  const info = { startedAt, node: process.versions.node, totalMs: Date.now() - started, installMs };
  const out = join(repoRoot, ".compat-out");
  mkdirSync(out, { recursive: true });
  writeJson(join(out, "latest.json"), rows, info);
  if (writeDocs && only === undefined) writeMarkdown(join(repoRoot, "docs/compat.md"), rows, info);

  const verdicts = rows.map(verdict);
  const count = (v: string) => verdicts.filter((x) => x === v).length;
  console.log(
    `\n${rows.length} cells in ${(info.totalMs / 1000).toFixed(0)} s: ${count("ok")} ok, ${count("known failure")} known failures, ` +
      `${count("now passes")} now pass (flip them in tools/compat/src/expectations.ts), ${count("REGRESSION")} regressions, ${count("UNLISTED")} unlisted`,
  );
  return count("REGRESSION") + count("UNLISTED") > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`compat: harness error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  },
);
