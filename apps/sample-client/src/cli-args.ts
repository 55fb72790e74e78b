/** Command-line arguments of `acp-sample-client` (pure: no process access, unit-tested). */

export type PermissionPolicy = "ask" | "allow" | "reject";

export interface ClientCliOptions {
  /** Spawn this agent command (everything after `--`). */
  agentCommand?: { command: string; args: string[] };
  /** Or connect to this WebSocket URL. */
  wsUrl?: string;
  /** Bearer token for `--ws`. */
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

A terminal ACP client (v2; v1 agents too, negotiated): renders the live session (streamed text, tool calls, plans,
terminals, permission prompts). Without --prompt it reads prompts from stdin (a REPL).

Options:
  --prompt TEXT        send one prompt, render the turn, exit (0 on end_turn)
  --ws URL             connect to a WebSocket agent (ws:// or wss://) instead of spawning one
  --token T            with --ws: send "Authorization: Bearer T"
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
  --verbose            debug logs on stderr
  -h, --help           show this help

Keys: Ctrl-C cancels the running turn, a second Ctrl-C exits; Ctrl-D on an empty line exits.
Exit status: 0 end_turn, 1 error (stop reason or connection), 2 bad arguments,
3 other stop reasons (max_tokens, refusal, ...), 130 cancelled.
`;

export function parseClientArgs(argv: readonly string[]): ClientCliOptions {
  const options: ClientCliOptions = { json: false, permissions: "ask", config: [], verbose: false, help: false };
  let yes = false;
  let no = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") {
      const [command, ...args] = argv.slice(i + 1);
      if (command === undefined || command.length === 0) throw new Error("expected an agent command after --");
      options.agentCommand = { command, args };
      break;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = argv[++i];
      if (next === undefined) throw new Error(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case "--prompt":
        options.prompt = value();
        if (options.prompt.trim().length === 0) throw new Error("--prompt must not be empty");
        break;
      case "--ws": {
        const url = value();
        let parsed: URL;
        try {
          parsed = new URL(url);
        } catch {
          throw new Error(`--ws expects a URL, got "${url}"`);
        }
        if (parsed.protocol !== "ws:" && parsed.protocol !== "wss:")
          throw new Error(`--ws expects a ws:// or wss:// URL, got "${url}"`);
        options.wsUrl = url;
        break;
      }
      case "--token":
        options.token = value();
        break;
      case "--yes":
      case "-y":
        yes = true;
        break;
      case "--no":
        no = true;
        break;
      case "--json":
        options.json = true;
        break;
      case "--config": {
        const pair = value();
        const at = pair.indexOf("=");
        if (at <= 0) throw new Error(`--config expects ID=VALUE, got "${pair}"`);
        options.config.push({ configId: pair.slice(0, at), value: pair.slice(at + 1) });
        break;
      }
      case "--resume":
        options.resume = value();
        if (options.resume.length === 0) throw new Error("--resume needs a session id");
        break;
      case "--resume-policy": {
        const policy = value();
        if (policy !== "off" && policy !== "auto" && policy !== "required")
          throw new Error(`--resume-policy expects auto, required or off, got "${policy}"`);
        options.resumePolicy = policy;
        break;
      }
      case "--cwd":
        options.cwd = value();
        break;
      case "--color":
        options.color = true;
        break;
      case "--no-color":
        options.color = false;
        break;
      case "--verbose":
        options.verbose = true;
        break;
      case "-h":
      case "--help":
        options.help = true;
        break;
      default:
        throw new Error(`Unknown argument "${arg}" (put the agent command after --)`);
    }
  }
  if (yes && no) throw new Error("--yes and --no exclude each other");
  options.permissions = yes ? "allow" : no ? "reject" : "ask";
  if (options.help) return options;
  if (options.agentCommand && options.wsUrl) throw new Error("give either --ws URL or -- <agent command>, not both");
  if (!options.agentCommand && !options.wsUrl) throw new Error("missing agent: give -- <agent command> or --ws URL");
  if (options.token !== undefined && !options.wsUrl) throw new Error("--token only applies with --ws");
  return options;
}
