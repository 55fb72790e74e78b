// Measurements run in child processes (so each has its own peak RSS): each prints its result as
// one JSON line last on stdout.
import { spawn } from "node:child_process";

/**
 * Runs `node <args>` with `env` and resolves with the JSON of the last line it printed.
 * Rejects when it cannot start or exits with a non-zero code (`label` names it in the error).
 */
export function runJsonChild<T>(args: string[], env: NodeJS.ProcessEnv, label: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (text: string) => (out += text));
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code !== 0) return reject(new Error(`${label}: client exited with code ${code}: ${out}`));
      resolve(JSON.parse(out.trim().split("\n").pop() ?? "") as T);
    });
  });
}
