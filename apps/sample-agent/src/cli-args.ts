/** Command-line arguments of `acp-sample-agent` (pure: no process access, unit-tested). */
import type { ParseArgsConfig } from "node:util";
import type { SampleMode, SampleModel } from "./config.js";
import { parseCliArgs } from "./parse-cli-args.js";

export interface AgentCliOptions {
  /** Serve WebSocket on this address instead of stdio. */
  ws?: { host: string; port: number };
  /** Serve Streamable HTTP (and WebSocket on the same path) on this address instead of stdio. */
  http?: { host: string; port: number };
  /** With `ws` or `http`: require `Authorization: Bearer <token>`. */
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
  --http [host:]port serve Streamable HTTP at http://host:port/acp instead, WebSocket on the same
                     path; prints "listening on http://host:port/acp"
  --token T          with --ws or --http: require "Authorization: Bearer T"
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
export function parseListenAddress(value: string, flag = "--ws"): { host: string; port: number } {
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d+)$/.exec(value.trim());
  if (!match) throw new Error(`${flag} expects [host:]port, got "${value}"`);
  const port = Number(match[2]);
  if (port > 65535) throw new Error(`${flag} port out of range: ${port}`);
  const host = match[1]?.replace(/^\[|\]$/g, "") ?? "127.0.0.1";
  return { host, port };
}

const OPTIONS = {
  ws: { type: "string" },
  http: { type: "string" },
  token: { type: "string" },
  mode: { type: "string" },
  model: { type: "string" },
  pace: { type: "string" },
  "data-dir": { type: "string" },
  postgres: { type: "string" },
  verbose: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const satisfies ParseArgsConfig["options"];

const MODES: readonly SampleMode[] = ["ask", "auto"];
const MODELS: readonly SampleModel[] = ["plain", "pirate"];

export function parseAgentArgs(argv: readonly string[]): AgentCliOptions {
  const { values, positionals } = parseCliArgs(argv, OPTIONS, "see --help");
  if (positionals.length > 0) throw new Error(`Unknown argument "${positionals[0]}"`);
  const options: AgentCliOptions = { verbose: values.verbose ?? false, help: values.help ?? false };
  if (values.ws !== undefined) options.ws = parseListenAddress(values.ws);
  if (values.http !== undefined) options.http = parseListenAddress(values.http, "--http");
  if (options.ws !== undefined && options.http !== undefined)
    throw new Error("--ws and --http are alternatives (--http serves WebSocket too): give one");
  if (values.token !== undefined) {
    if (values.token.length === 0) throw new Error("--token must not be empty");
    options.token = values.token;
  }
  if (values.mode !== undefined) options.mode = oneOf("--mode", values.mode, MODES);
  if (values.model !== undefined) options.model = oneOf("--model", values.model, MODELS);
  if (values.pace !== undefined) {
    const pace = Number(values.pace);
    if (values.pace.trim() === "" || !Number.isFinite(pace) || pace < 0)
      throw new Error("--pace expects a number of milliseconds ≥ 0");
    options.paceMs = pace;
  }
  if (values["data-dir"] !== undefined) {
    if (values["data-dir"].length === 0) throw new Error("--data-dir needs a directory");
    options.dataDir = values["data-dir"];
  }
  if (values.postgres !== undefined) {
    if (!/^postgres(ql)?:\/\//.test(values.postgres)) throw new Error("--postgres expects a postgres:// URL");
    options.postgres = values.postgres;
  }
  if (options.dataDir !== undefined && options.postgres !== undefined)
    throw new Error("--data-dir and --postgres are alternatives: give one");
  if (options.token !== undefined && options.ws === undefined && options.http === undefined)
    throw new Error("--token only applies with --ws or --http");
  return options;
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value))
    throw new Error(`${flag} expects ${allowed.join(" or ")}, got "${value}"`);
  return value as T;
}
