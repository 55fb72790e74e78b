import * as path from "node:path";
import { fileSystem } from "./builtins.js";

/** What to pass to `child_process.spawn` (always with `shell: false`). */
export interface ResolvedCommand {
  file: string;
  args: string[];
  /** Set when the command line was quoted here for `cmd.exe` (Windows batch files). */
  windowsVerbatimArguments?: boolean;
}

export interface ResolveCommandOptions {
  platform?: NodeJS.Platform;
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Whether a path names an existing file (injected by tests). */
  isFile?: (file: string) => boolean;
}

const DEFAULT_PATHEXT = ".COM;.EXE;.BAT;.CMD";

/**
 * Resolve a command for spawning without a shell.
 *
 * On POSIX the command is returned as is: `execvp` searches `PATH`. On Windows, `spawn`
 * without a shell only finds files named exactly, so a bare name (`npx`, `my-agent`) is
 * searched in `PATH` with each `PATHEXT` extension, the way `cmd.exe` would. Batch files
 * (`.cmd`, `.bat`: npm's shims) cannot be run directly since Node's CVE-2024-27980 fix: they
 * run through `cmd.exe /d /s /c` with every argument quoted and its metacharacters escaped,
 * so an argument is never interpreted by the shell.
 */
export function resolveCommand(
  command: string,
  args: readonly string[],
  options: ResolveCommandOptions = {},
): ResolvedCommand {
  const platform = options.platform ?? process.platform;
  if (platform !== "win32") return { file: command, args: [...args] };
  const env = options.env ?? process.env;
  const isFile = options.isFile ?? fileExists;
  const file = findWindowsExecutable(command, env, options.cwd ?? process.cwd(), isFile) ?? command;
  if (!/\.(cmd|bat)$/i.test(file)) return { file, args: [...args] };
  const comspec = getEnv(env, "ComSpec") ?? "cmd.exe";
  const line = [quoteForCmd(file), ...args.map(quoteForCmd)].join(" ");
  return { file: comspec, args: ["/d", "/s", "/c", `"${line}"`], windowsVerbatimArguments: true };
}

/** Find `command` the way cmd.exe does: as given if it has an extension, else with each PATHEXT extension, in cwd then in PATH. */
export function findWindowsExecutable(
  command: string,
  env: Record<string, string | undefined>,
  cwd: string,
  isFile: (file: string) => boolean,
): string | undefined {
  const win = path.win32;
  const extensions = (getEnv(env, "PATHEXT") ?? DEFAULT_PATHEXT)
    .split(";")
    // Windows file names are case-insensitive; lower case reads better in messages.
    .map((ext) => ext.trim().toLowerCase())
    .filter((ext) => ext.length > 0);
  const hasExtension = win.extname(command) !== "";
  const candidatesFor = (base: string): string[] =>
    hasExtension ? [base, ...extensions.map((ext) => base + ext)] : extensions.map((ext) => base + ext);
  const hasDirectory = /[\\/]/.test(command) || win.isAbsolute(command);
  const directories = hasDirectory
    ? [""]
    : [
        cwd,
        ...(getEnv(env, "PATH") ?? "")
          .split(";")
          .map(unquote)
          .filter((dir) => dir.length > 0),
      ];
  for (const dir of directories) {
    const base = dir === "" ? win.resolve(cwd, command) : win.join(dir, command);
    for (const candidate of candidatesFor(base)) {
      if (isFile(candidate)) return candidate;
    }
  }
  return undefined;
}

/**
 * Quote one argument for a `cmd.exe /s /c "..."` line that starts a batch file: first the
 * MSVCRT rules (backslashes before a quote doubled, the quote escaped), then every cmd
 * metacharacter escaped with `^` so that `&`, `|`, `%`, ... stay literal.
 */
export function quoteForCmd(arg: string): string {
  let quoted = arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, "$1$1");
  quoted = `"${quoted}"`;
  return quoted.replace(/[()%!^"<>&|]/g, "^$&");
}

function getEnv(env: Record<string, string | undefined>, name: string): string | undefined {
  // Windows environment names are case-insensitive.
  const key = Object.keys(env).find((k) => k.toUpperCase() === name.toUpperCase());
  return key === undefined ? undefined : env[key];
}

function unquote(dir: string): string {
  const trimmed = dir.trim();
  return trimmed.startsWith('"') && trimmed.endsWith('"') && trimmed.length >= 2 ? trimmed.slice(1, -1) : trimmed;
}

function fileExists(file: string): boolean {
  try {
    return fileSystem().statSync(file).isFile();
  } catch {
    return false;
  }
}
