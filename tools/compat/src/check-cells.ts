// `acp-kit check agent` on each real agent and `acp-kit check client` on each real client,
// run as a user runs them (the built CLI, `--json`), the verdict counts recorded.
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { oneLine } from "./client-cells.js";
import type { CellResult } from "./report.js";

const require = createRequire(import.meta.url);
/** The CLI's built bin (`packages/cli/dist/bin.js`), found through the workspace dependency. */
export const CLI_BIN = join(dirname(require.resolve("@acp-kit/cli/package.json")), "dist", "bin.js");

/** The checker's own bound on one run; a v1 peer may make it wait out `--timeout` per turn. */
const CHECK_DEADLINE_MS = 6 * 60_000;

interface CheckReport {
  ok: boolean;
  summary: { passed: number; failed: number; skipped: number; blockingFailures: number };
  rows: { id: string; status: string; tier: string }[];
}

export interface CheckRun {
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

/** Runs `acp-kit check ...` and turns its JSON report into a cell: pass when it is conformant. */
export function checkCell(run: CheckRun): Promise<CellResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI_BIN, "check", ...run.args],
      { cwd: run.cwd, env: run.env, timeout: CHECK_DEADLINE_MS, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const ms = Date.now() - started;
        let report: CheckReport;
        try {
          report = JSON.parse(stdout) as CheckReport;
        } catch {
          const why = error?.killed
            ? `no report within ${CHECK_DEADLINE_MS / 1000} s`
            : `no JSON report (exit ${error?.code ?? 0}): ${stderr || stdout}`;
          resolve({ status: "fail", detail: oneLine(why), ms });
          return;
        }
        const { passed, failed, skipped, blockingFailures } = report.summary;
        const counts = `${passed} passed, ${failed} failed (${blockingFailures} blocking), ${skipped} skipped`;
        const blocking = report.rows
          .filter((r) => r.status === "fail" && (r.tier === "MANDATORY" || r.tier === "CAPABILITY"))
          .map((r) => r.id);
        const first = blocking.length > 0 ? `; first blocking: ${blocking.slice(0, 3).join(", ")}` : "";
        resolve({
          status: report.ok ? "pass" : "fail",
          detail: `${report.ok ? "conformant" : "NOT conformant"}: ${counts}${first}`,
          ms,
        });
      },
    );
  });
}
