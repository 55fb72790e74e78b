import type { AgentTarget } from "../agent-target.js";

export interface CheckAgentOptions {
  target: AgentTarget;
  /** A prompt that runs an ordinary turn (default "Say hello."). */
  prompt: string;
  /** A prompt that makes the agent ask for a permission (default: the ordinary prompt). */
  permissionPrompt: string;
  /** A prompt that starts a long, cancellable job (default "/slow"). */
  longPrompt: string;
  /** The session's working directory (default: the current one). */
  cwd: string;
  /** Longest wait for one turn (default 30 s). */
  turnTimeoutMs: number;
  /** How long to watch for stray messages after a turn ended (default 300 ms). */
  graceMs: number;
  /** Only these scenarios (default all). */
  only?: string[];
}

export const DEFAULT_CHECK_AGENT = {
  prompt: "Say hello.",
  longPrompt: "/slow",
  turnTimeoutMs: 30_000,
  graceMs: 300,
} as const;
