/** The command line of `acp-kit` (pure: unit-tested). */

import { LocalError } from "@acp-kit/protocol/jsonrpc";

export const USAGE = `Usage:
  acp-kit check agent [options] -- <agent command...>      conformance of an agent (fresh process per scenario)
  acp-kit check client [options] -- <client command...>     conformance of a client; {agent} in its command
                                                           line becomes the command of a scripted agent
  acp-kit record [--out FILE] -- <agent command...>         stdio proxy between an editor and an agent,
                                                           recording a JSONL transcript
  acp-kit replay FILE [options] -- <agent command...>       replay a transcript's client side, diff the answers
  acp-kit inspect [--port N] -- <agent command...>          a web page to prompt an agent and watch the wire

check agent options:
  --ws URL               the agent serves WebSocket: connect to URL (auto = read the URL the agent
                         prints as "listening on ws://..." on stderr); without a command, one agent
  --prompt TEXT          a prompt that runs an ordinary turn (default "Say hello.")
  --permission-prompt T  a prompt that makes the agent ask for a permission (default: --prompt)
  --long-prompt TEXT     a prompt that starts a long, cancellable job (default "/slow")
  --only a,b             run only these scenarios (initialize, prompt, cancel, permission,
                         permission-cancel, resume)
check client options:
  --ws                   give the client a WebSocket URL for {agent} instead of a stdio command
  --cancel-signal SIG    how the client is made to cancel its turn (default SIGINT)
common options:
  --json                 print the report as JSON
  --timeout MS           longest wait for one turn (default 30000)
  --cwd DIR              working directory of sessions (default: the current one)
  --verbose              show the evidence of passing rows too
  -h, --help             show this help

Exit status: 0 when no MANDATORY/CAPABILITY requirement failed, 1 otherwise, 2 for bad arguments.
`;

export type Command =
  | { name: "help" }
  | { name: "check-agent"; flags: Flags; command?: string[] }
  | { name: "check-client"; flags: Flags; command: string[] }
  | { name: "record"; flags: Flags; command: string[] }
  | { name: "replay"; file: string; flags: Flags; command?: string[] }
  | { name: "inspect"; flags: Flags; command?: string[] };

export interface Flags {
  json: boolean;
  verbose: boolean;
  ws?: string | true;
  prompt?: string;
  permissionPrompt?: string;
  longPrompt?: string;
  only?: string[];
  cancelSignal?: string;
  timeoutMs?: number;
  cwd?: string;
  out?: string;
  port?: number;
  open: boolean;
}

/** A command line `acp-kit` cannot run (exit code 2, with the usage). */
export class UsageError extends LocalError {
  override readonly name = "UsageError";
}

const VALUE_FLAGS = new Set([
  "--prompt",
  "--permission-prompt",
  "--long-prompt",
  "--only",
  "--cancel-signal",
  "--timeout",
  "--cwd",
  "--out",
  "--port",
]);

function parseFlags(words: string[], allowWsValue: boolean): Flags {
  const flags: Flags = { json: false, verbose: false, open: false };
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    const eq = word.startsWith("--") ? word.indexOf("=") : -1;
    const flag = eq > 0 ? word.slice(0, eq) : word;
    const inline = eq > 0 ? word.slice(eq + 1) : undefined;
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = words[++i];
      if (next === undefined) throw new UsageError(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case "--json":
        flags.json = true;
        break;
      case "--verbose":
        flags.verbose = true;
        break;
      case "--open":
        flags.open = true;
        break;
      case "--ws":
        if (!allowWsValue) flags.ws = true;
        else {
          const url = value();
          if (url !== "auto" && !/^wss?:\/\//.test(url))
            throw new UsageError(`--ws expects a ws:// or wss:// URL (or auto), got "${url}"`);
          flags.ws = url;
        }
        break;
      case "--prompt":
        flags.prompt = value();
        break;
      case "--permission-prompt":
        flags.permissionPrompt = value();
        break;
      case "--long-prompt":
        flags.longPrompt = value();
        break;
      case "--only":
        flags.only = value()
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
        break;
      case "--cancel-signal":
        flags.cancelSignal = value();
        break;
      case "--cwd":
        flags.cwd = value();
        break;
      case "--out":
        flags.out = value();
        break;
      case "--timeout":
      case "--port": {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} expects a non-negative integer`);
        if (flag === "--port") flags.port = n;
        else flags.timeoutMs = n;
        break;
      }
      default:
        throw new UsageError(VALUE_FLAGS.has(flag) ? `${flag} needs a value` : `unknown option ${word}`);
    }
  }
  return flags;
}

export function parseArgs(argv: readonly string[]): Command {
  const dash = argv.indexOf("--");
  const before = dash === -1 ? [...argv] : argv.slice(0, dash);
  const command = dash === -1 ? undefined : argv.slice(dash + 1);
  if (command !== undefined && command.length === 0) throw new UsageError("expected a command after --");
  if (before.length === 0 || before.includes("-h") || before.includes("--help") || before[0] === "help")
    return { name: "help" };
  const [verb, ...rest] = before as [string, ...string[]];
  switch (verb) {
    case "check": {
      const [what, ...flagWords] = rest;
      if (what === "agent") {
        const flags = parseFlags(flagWords, true);
        if (command === undefined && typeof flags.ws !== "string")
          throw new UsageError("check agent needs -- <agent command...> or --ws URL");
        if (command === undefined && flags.ws === "auto") throw new UsageError("--ws auto needs an agent command");
        return command ? { name: "check-agent", flags, command } : { name: "check-agent", flags };
      }
      if (what === "client") {
        const flags = parseFlags(flagWords, false);
        if (command === undefined)
          throw new UsageError("check client needs -- <client command...> (with {agent} where the agent command goes)");
        if (!command.some((w) => w.includes("{agent}")))
          throw new UsageError("the client command must contain {agent}");
        return { name: "check-client", flags, command };
      }
      throw new UsageError('expected "check agent" or "check client"');
    }
    case "record": {
      const flags = parseFlags(rest, false);
      if (command === undefined) throw new UsageError("record needs -- <agent command...>");
      return { name: "record", flags, command };
    }
    case "replay": {
      const [file, ...flagWords] = rest;
      if (file === undefined || file.startsWith("--")) throw new UsageError("replay needs a transcript FILE");
      const flags = parseFlags(flagWords, true);
      if (command === undefined && typeof flags.ws !== "string")
        throw new UsageError("replay needs -- <agent command...> or --ws URL");
      return command ? { name: "replay", file, flags, command } : { name: "replay", file, flags };
    }
    case "inspect": {
      const flags = parseFlags(rest, true);
      if (command === undefined && typeof flags.ws !== "string")
        throw new UsageError("inspect needs -- <agent command...> or --ws URL");
      return command ? { name: "inspect", flags, command } : { name: "inspect", flags };
    }
    default:
      throw new UsageError(`unknown command "${verb}"`);
  }
}
