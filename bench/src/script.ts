// How the benchmark starts its processes. `pnpm bench` compiles this folder to bench/dist first and
// runs the compiled scripts with plain `node`: a TypeScript loader in each measured process (tsx
// keeps a module-hooks thread with its own V8 isolate, ~40–50 MiB of RSS) would add the same
// constant to both sides of every RSS row, and no user runs an agent or a client that way. Only
// where this module itself runs from its .ts source (the runner's tests under vitest) do the
// scripts run from source, through tsx.
import { fileURLToPath } from "node:url";

const compiled = !import.meta.url.endsWith(".ts");

/** The path of the script `relative` (written with its `.ts` name) next to `base` (an `import.meta.url`). */
export function scriptPath(relative: string, base: string): string {
  return fileURLToPath(new URL(compiled ? relative.replace(/\.ts$/, ".js") : relative, base));
}

/** The `node` arguments that run `file` (from `scriptPath`), after `options`. */
export function nodeArgs(file: string, options: readonly string[] = []): string[] {
  return compiled ? [...options, file] : [...options, "--import", "tsx", file];
}
