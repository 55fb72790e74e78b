/**
 * How the client reports an agent's error (pure, unit-tested): the step that failed, the
 * error's message and code, and what its `data` says (agents put the real reason there, e.g.
 * gemini-cli's `data.details`); on an authentication refusal, the auth methods the agent offers
 * and how to run the terminal ones.
 */
import type { AuthMethod } from "@acp-kit/protocol/types";
import type { Style } from "./style.js";

/** The steps the client names when one fails. */
export type ClientStep = "initialize" | "session/new" | "session/resume" | `set config ${string}` | "prompt";

/** ACP's "authentication required" (-32000). */
const AUTH_REQUIRED = -32000;
const MAX_DATA_CHARS = 400;

interface ErrorLike {
  readonly code?: unknown;
  readonly message?: unknown;
  readonly data?: unknown;
}

function clip(text: string): string {
  return text.length > MAX_DATA_CHARS ? `${text.slice(0, MAX_DATA_CHARS - 1)}…` : text;
}

/**
 * What an error's `data` adds to its message, as text: `details` (or `message`, `reason`) when it
 * is a string, else the data as JSON; nothing when it only repeats the message or lists auth
 * methods (shown on their own).
 */
export function dataText(error: ErrorLike): string | undefined {
  const { data } = error;
  if (data === undefined || data === null) return undefined;
  if (typeof data === "string") return data === error.message ? undefined : clip(data);
  if (typeof data !== "object") return clip(JSON.stringify(data));
  const fields = data as Record<string, unknown>;
  for (const key of ["details", "message", "reason"]) {
    const value = fields[key];
    if (typeof value === "string" && value !== error.message) return clip(value);
  }
  const { authMethods: _listed, ...rest } = fields;
  return Object.keys(rest).length === 0 ? undefined : clip(JSON.stringify(rest));
}

/** One line: `message (code): what data adds`. */
export function errorText(error: ErrorLike): string {
  const message = typeof error.message === "string" && error.message !== "" ? error.message : "unknown error";
  const code = typeof error.code === "number" || typeof error.code === "string" ? ` (${error.code})` : "";
  const extra = dataText(error);
  return `${message}${code}${extra === undefined ? "" : `: ${extra}`}`;
}

/** How to run a terminal auth method: its own command line (`_meta["terminal-auth"]`), else the agent's with `args`. */
export function terminalCommand(method: AuthMethod, agentCommand: readonly string[] | undefined): string | undefined {
  if (method.type !== "terminal") return undefined;
  const launch = method._meta?.["terminal-auth"] as { command?: unknown; args?: unknown } | undefined;
  if (typeof launch?.command === "string") {
    const args = Array.isArray(launch.args) ? launch.args.filter((a): a is string => typeof a === "string") : [];
    return [launch.command, ...args].join(" ");
  }
  if (agentCommand === undefined) return undefined;
  return [...agentCommand, ...("args" in method && Array.isArray(method.args) ? method.args : [])].join(" ");
}

/** The lines listing auth methods: name, description, and for a terminal method the command to run. */
export function authMethodLines(methods: readonly AuthMethod[], agentCommand: readonly string[] | undefined): string[] {
  return methods.flatMap((method) => {
    const description = typeof method.description === "string" ? ` — ${method.description}` : "";
    const lines = [`  • ${method.name}${description}`];
    const command = terminalCommand(method, agentCommand);
    if (command !== undefined) lines.push(`    run in a terminal: ${command}`);
    return lines;
  });
}

export interface FailureContext {
  readonly step: ClientStep;
  /** The auth methods the agent advertised at `initialize`. */
  readonly authMethods: readonly AuthMethod[];
  /** The agent's command line, for terminal auth methods. */
  readonly agentCommand?: readonly string[];
}

/** The lines reporting `error` from `step`. */
export function renderFailure(error: unknown, context: FailureContext, style: Style): string[] {
  const fields: ErrorLike =
    typeof error === "object" && error !== null ? (error as ErrorLike) : { message: String(error) };
  const lines = [style.red(`✘ ${context.step} failed: ${errorText(fields)}`)];
  if (fields.code === AUTH_REQUIRED) {
    const methods = context.authMethods;
    if (methods.length === 0) lines.push("  The agent asks to authenticate but advertises no auth method.");
    else lines.push("  The agent asks to authenticate. It offers:", ...authMethodLines(methods, context.agentCommand));
  }
  return lines;
}
