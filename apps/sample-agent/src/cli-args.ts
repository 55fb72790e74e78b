/** Command-line arguments of `acp-sample-agent` (pure: no process access, unit-tested). */
import type { SampleMode, SampleModel } from "./config.js";

export interface AgentCliOptions {
  /** Serve WebSocket on this address instead of stdio. */
  ws?: { host: string; port: number };
  /** With `ws`: require `Authorization: Bearer <token>`. */
  token?: string;
  paceMs?: number;
  /** Keep sessions in this directory (a file store) instead of memory. */
  dataDir?: string;
  /** Or in this PostgreSQL database, shared with other instances. */
  postgres?: string;
  mode?: SampleMode;
  model?: SampleModel;
  verbose: boolean;
  help: boolean;
}

export const AGENT_USAGE = `Usage: acp-sample-agent [options]

A deterministic scripted ACP v2 agent. Serves stdio by default.

Options:
  --ws [host:]port   serve WebSocket at ws://host:port/acp instead (host defaults to 127.0.0.1,
                     port 0 picks a free one); the bound URL is printed on stderr as
                     "listening on ws://host:port/acp"
  --token T          with --ws: require "Authorization: Bearer T"
  --data-dir DIR     keep sessions in DIR (created if missing) so that they survive a restart;
                     default: in memory, lost when the agent exits
  --postgres URL     keep sessions in PostgreSQL (postgres://user@host:port/db), shared by every
                     instance given the same URL: any of them resumes any session
  --mode ask|auto    mode new sessions start in (default ask: edits need approval)
  --model plain|pirate  model new sessions start with (changes the wording)
  --pace MS          delay between streamed pieces (default 40, 0 = no delay)
  --verbose          debug logs on stderr
  -h, --help         show this help
`;

/** Parses `[host:]port`; IPv6 hosts go in brackets (`[::1]:8080`). */
export function parseListenAddress(value: string): { host: string; port: number } {
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d+)$/.exec(value.trim());
  if (!match) throw new Error(`--ws expects [host:]port, got "${value}"`);
  const port = Number(match[2]);
  if (port > 65535) throw new Error(`--ws port out of range: ${port}`);
  const host = match[1]?.replace(/^\[|\]$/g, "") ?? "127.0.0.1";
  return { host, port };
}

export function parseAgentArgs(argv: readonly string[]): AgentCliOptions {
  const options: AgentCliOptions = { verbose: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=")
        ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
        : [arg, undefined];
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = argv[++i];
      if (next === undefined) throw new Error(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case "--ws":
        options.ws = parseListenAddress(value());
        break;
      case "--token":
        options.token = value();
        if (options.token.length === 0) throw new Error("--token must not be empty");
        break;
      case "--mode": {
        const mode = value();
        if (mode !== "ask" && mode !== "auto") throw new Error(`--mode expects ask or auto, got "${mode}"`);
        options.mode = mode;
        break;
      }
      case "--model": {
        const model = value();
        if (model !== "plain" && model !== "pirate") throw new Error(`--model expects plain or pirate, got "${model}"`);
        options.model = model;
        break;
      }
      case "--pace": {
        const pace = Number(value());
        if (!Number.isFinite(pace) || pace < 0) throw new Error("--pace expects a number of milliseconds ≥ 0");
        options.paceMs = pace;
        break;
      }
      case "--data-dir":
        options.dataDir = value();
        if (options.dataDir.length === 0) throw new Error("--data-dir needs a directory");
        break;
      case "--postgres":
        options.postgres = value();
        if (!/^postgres(ql)?:\/\//.test(options.postgres)) throw new Error("--postgres expects a postgres:// URL");
        break;
      case "--verbose":
        options.verbose = true;
        break;
      case "-h":
      case "--help":
        options.help = true;
        break;
      default:
        throw new Error(`Unknown argument "${arg}"`);
    }
  }
  if (options.dataDir !== undefined && options.postgres !== undefined)
    throw new Error("--data-dir and --postgres are alternatives: give one");
  if (options.token !== undefined && options.ws === undefined) throw new Error("--token only applies with --ws");
  return options;
}
