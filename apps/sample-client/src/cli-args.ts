/** Command-line arguments of `acp-sample-client` (pure: no process access, unit-tested). */
import type { ParseArgsConfig } from "node:util";
import { parseCliArgs } from "./parse-cli-args.js";

export type PermissionPolicy = "ask" | "allow" | "reject";

export interface ClientCliOptions {
  /** Spawn this agent command (everything after `--`). */
  agentCommand?: { command: string; args: string[] };
  /** Or connect to this WebSocket URL. */
  wsUrl?: string;
  /** Or to this Streamable HTTP endpoint. */
  httpUrl?: string;
  /** Bearer token for `--ws` / `--http`. */
  token?: string;
  /** One-shot: send this prompt, render the turn, exit. Without it: a REPL on stdin. */
  prompt?: string;
  /** Print every wire message as a JSON line on stdout (and nothing else there). */
  json: boolean;
  permissions: PermissionPolicy;
  /** Resume this session (with its history replayed) instead of starting a new one. */
  resume?: string;
  /** What to do when `resume` cannot be resumed (default `auto`: start a new session, say why). */
  resumePolicy?: "off" | "auto" | "required";
  /** Session working directory (absolute). */
  cwd?: string;
  /** Config options to set before the first prompt, in order. */
  config: { configId: string; value: string }[];
  color?: boolean;
  verbose: boolean;
  help: boolean;
}

export const CLIENT_USAGE = `Usage: acp-sample-client [options] -- <agent command> [agent args...]
       acp-sample-client [options] --ws <url>
       acp-sample-client [options] --http <url>

A terminal ACP client (v2; v1 agents too, negotiated): renders the live session (streamed text, tool calls, plans,
terminals, permission prompts). Without --prompt it reads prompts from stdin (a REPL).

Options:
  --prompt TEXT        send one prompt, render the turn, exit (0 on end_turn)
  --ws URL             connect to a WebSocket agent (ws:// or wss://) instead of spawning one
  --http URL           connect to a Streamable HTTP agent (http:// or https://) instead
  --token T            with --ws or --http: send "Authorization: Bearer T"
  --yes                approve every permission request
  --no                 reject every permission request
  --json               print every wire message (both directions) as JSON lines on stdout;
                       the rendered session goes to stderr
  --config ID=VALUE    set a session config option before prompting (repeatable),
                       e.g. --config mode=auto --config model=pirate
  --resume SESSION_ID  resume an existing session, replaying its history, instead of a new one
                       (give the same --cwd it was created with); replayed history is marked
  --resume-policy auto|required|off  when the session cannot be resumed (unknown to the agent,
                       other cwd): auto (default) starts a new session with a notice, required
                       exits 1, off never resumes
  --cwd DIR            the session's working directory (default: the current one)
  --color / --no-color force colors on or off (default: on for terminals)
  --verbose            debug logs on stderr, and the agent's stderr as it comes (else only its
                       last lines, when something fails)
  -h, --help           show this help

Keys: Ctrl-C cancels the running turn, a second Ctrl-C exits; Ctrl-D on an empty line exits.
Exit status: 0 end_turn, 1 error (stop reason or connection), 2 bad arguments,
3 other stop reasons (max_tokens, refusal, ...), 130 cancelled.
`;

const OPTIONS = {
  prompt: { type: "string" },
  ws: { type: "string" },
  http: { type: "string" },
  token: { type: "string" },
  yes: { type: "boolean", short: "y" },
  no: { type: "boolean" },
  json: { type: "boolean" },
  config: { type: "string", multiple: true },
  resume: { type: "string" },
  "resume-policy": { type: "string" },
  cwd: { type: "string" },
  color: { type: "boolean" },
  "no-color": { type: "boolean" },
  verbose: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const satisfies ParseArgsConfig["options"];

export function parseClientArgs(argv: readonly string[]): ClientCliOptions {
  // Everything after `--` is the agent command with its own flags: parseArgs never sees it.
  const terminator = argv.indexOf("--");
  const own = terminator === -1 ? argv : argv.slice(0, terminator);
  const { values, positionals } = parseCliArgs(own, OPTIONS, "put the agent command after --");
  if (positionals.length > 0) throw new Error(`Unknown argument "${positionals[0]}" (put the agent command after --)`);

  const options: ClientCliOptions = {
    json: values.json ?? false,
    permissions: "ask",
    config: [],
    verbose: values.verbose ?? false,
    help: values.help ?? false,
  };
  if (terminator !== -1) {
    const [command, ...args] = argv.slice(terminator + 1);
    if (command === undefined || command.length === 0) throw new Error("expected an agent command after --");
    options.agentCommand = { command, args };
  }
  if (values.prompt !== undefined) {
    if (values.prompt.trim().length === 0) throw new Error("--prompt must not be empty");
    options.prompt = values.prompt;
  }
  if (values.ws !== undefined) options.wsUrl = checkUrl("--ws", values.ws, ["ws:", "wss:"]);
  if (values.http !== undefined) options.httpUrl = checkUrl("--http", values.http, ["http:", "https:"]);
  if (values.token !== undefined) options.token = values.token;
  for (const pair of values.config ?? []) {
    const at = pair.indexOf("=");
    if (at <= 0) throw new Error(`--config expects ID=VALUE, got "${pair}"`);
    options.config.push({ configId: pair.slice(0, at), value: pair.slice(at + 1) });
  }
  if (values.resume !== undefined) {
    if (values.resume.length === 0) throw new Error("--resume needs a session id");
    options.resume = values.resume;
  }
  if (values["resume-policy"] !== undefined) {
    const policy = values["resume-policy"];
    if (policy !== "off" && policy !== "auto" && policy !== "required")
      throw new Error(`--resume-policy expects auto, required or off, got "${policy}"`);
    options.resumePolicy = policy;
  }
  if (values.cwd !== undefined) options.cwd = values.cwd;
  if (values.color && values["no-color"]) throw new Error("--color and --no-color exclude each other");
  if (values.color) options.color = true;
  if (values["no-color"]) options.color = false;

  if (values.yes && values.no) throw new Error("--yes and --no exclude each other");
  options.permissions = values.yes ? "allow" : values.no ? "reject" : "ask";
  if (options.help) return options;
  const remotes = [options.agentCommand, options.wsUrl, options.httpUrl].filter((given) => given !== undefined).length;
  if (remotes > 1) throw new Error("give one of --ws URL, --http URL or -- <agent command>");
  if (remotes === 0) throw new Error("missing agent: give -- <agent command>, --ws URL or --http URL");
  if (options.token !== undefined && !options.wsUrl && !options.httpUrl)
    throw new Error("--token only applies with --ws or --http");
  return options;
}

function checkUrl(flag: string, url: string, schemes: readonly string[]): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`${flag} expects a URL, got "${url}"`);
  }
  if (!schemes.includes(parsed.protocol))
    throw new Error(`${flag} expects a ${schemes.map((s) => `${s}//`).join(" or ")} URL, got "${url}"`);
  return url;
}
