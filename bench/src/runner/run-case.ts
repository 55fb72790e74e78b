// Runs one case: every round runs each side in a fresh `node` process, in alternating order (so a
// noisy moment on a shared machine does not always hit the same side), and collects the figures.
import { spawn } from "node:child_process";
import { nodeArgs, scriptPath } from "../script.js";
import type { CaseSpec } from "./case-spec.js";
import { type CaseResult, type Figures, type Round, summarizeCase } from "./summary.js";

export interface RunOptions {
  quick: boolean;
  /** Overrides the case's rounds. */
  rounds?: number;
  /** Progress lines (stderr in the CLI). */
  progress?: (line: string) => void;
  /** Where case scripts live (tests point it at fixtures). */
  casesDir?: URL;
  /** The environment the sides' needs are checked against (default: this process's). */
  env?: NodeJS.ProcessEnv;
}

/** The sides of `spec` whose needs `env` does not meet, each with why it is skipped. */
export function skippedSides(spec: CaseSpec, env: NodeJS.ProcessEnv): Record<string, string> {
  const skipped: Record<string, string> = {};
  for (const [side, needs] of Object.entries(spec.needs ?? {}))
    if ((env[needs.env] ?? "") === "") skipped[side] = needs.skipped;
  return skipped;
}

const CASES_DIR = new URL("../cases/", import.meta.url);

/** Runs `node <options> <script> <side> [--quick]` (see `nodeArgs`); resolves with its last JSON line. */
export function runSideProcess(script: string, side: string, spec: CaseSpec, quick: boolean): Promise<Figures> {
  const args = [...nodeArgs(script, spec.nodeOptions), side, ...(quick ? ["--quick"] : [])];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, NODE_ENV: "production", ...spec.env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (text: string) => (out += text));
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      if (code !== 0)
        return reject(new Error(`${spec.name}/${side} exited with ${signal ?? code}: ${out.slice(-500)}`));
      const last = out.trim().split("\n").pop() ?? "";
      try {
        resolve(JSON.parse(last) as Figures);
      } catch {
        reject(new Error(`${spec.name}/${side} printed no JSON line: ${out.slice(-500)}`));
      }
    });
  });
}

export async function runCase(spec: CaseSpec, options: RunOptions): Promise<CaseResult> {
  const script = scriptPath(spec.script, (options.casesDir ?? CASES_DIR).href);
  const count = options.rounds ?? (options.quick ? 1 : (spec.rounds ?? 5));
  const skipped = skippedSides(spec, options.env ?? process.env);
  const sides = spec.sides.filter((side) => skipped[side] === undefined);
  for (const [side, why] of Object.entries(skipped)) options.progress?.(`${spec.name}: ${side} skipped: ${why}`);
  const started = performance.now();
  const rounds: Round[] = [];
  for (let r = 0; r < count && sides.length > 0; r++) {
    const order = r % 2 === 0 ? sides : [...sides].reverse();
    const round: Round = {};
    for (const side of order) {
      options.progress?.(`${spec.name}: round ${r + 1}/${count}, ${side}`);
      round[side] = await runSideProcess(script, side, spec, options.quick);
    }
    rounds.push(round);
  }
  return summarizeCase(spec, rounds, (performance.now() - started) / 1000, skipped);
}
