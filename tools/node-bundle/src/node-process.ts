// Runs a snippet of ES module code in a fresh plain `node` process (no loader, no aliases), from
// this folder, so `@acp-kit/*` resolve through node_modules and each package's `exports` exactly
// as in a user's program. The snippet reports by calling `report(value)`; the value comes back.
// It can also call `await loadedFiles()`: the file URLs of every module loaded so far (what the
// inspector has seen parsed).
import { spawnSync } from "node:child_process";

export interface NodeRun {
  /** Extra `node` flags, e.g. `--conditions=production`. */
  readonly flags?: readonly string[];
  /** Extra environment variables. */
  readonly env?: Readonly<Record<string, string>>;
}

const PRELUDE = `
const report = (value) => process.stdout.write("\\n" + JSON.stringify(value) + "\\n");
const loadedFiles = async () => {
  const { Session } = await import("node:inspector");
  const session = new Session();
  const urls = [];
  session.on("Debugger.scriptParsed", ({ params }) => { if (params.url.startsWith("file:") && !params.url.includes("[eval")) urls.push(params.url); });
  session.connect();
  session.post("Debugger.enable"); // reports every script parsed so far, synchronously
  session.disconnect();
  return urls;
};
`;

export function runInNode<T>(code: string, { flags = [], env = {} }: NodeRun = {}): T {
  // The test runner's own settings (NODE_ENV=test, loaders) stay out of the plain process.
  const { NODE_ENV: _env, NODE_OPTIONS: _options, ...inherited } = process.env;
  const r = spawnSync(process.execPath, [...flags, "--input-type=module", "--eval", `${PRELUDE}${code}`], {
    cwd: import.meta.dirname,
    encoding: "utf8",
    timeout: 20_000,
    env: { ...inherited, ...env },
  });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`node exited with ${r.status}:\n${r.stderr}`);
  const last = r.stdout.trim().split("\n").pop();
  if (last === undefined || last === "") throw new Error(`the snippet reported nothing:\n${r.stderr}`);
  return JSON.parse(last) as T;
}
