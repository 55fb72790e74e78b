/** `acp-kit` dispatch: parses argv, runs one command, returns the exit status. */
import type { AgentTarget } from "./agent-target.js";
import { type Command, type Flags, parseArgs, USAGE, UsageError } from "./args.js";
import { DEFAULT_CHECK_AGENT } from "./check-agent/options.js";
import { checkAgent } from "./check-agent/run.js";
import { formatReport, type Report } from "./report.js";

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
}

const defaultIo: Io = {
  stdout: (t) => void process.stdout.write(t),
  stderr: (t) => void process.stderr.write(t),
  cwd: process.cwd(),
};

export function agentTarget(flags: Flags, command: string[] | undefined, cwd?: string): AgentTarget {
  const target: AgentTarget = {};
  if (command) target.command = { command: command[0] as string, args: command.slice(1) };
  if (typeof flags.ws === "string") target.ws = flags.ws;
  if (cwd) target.cwd = cwd;
  return target;
}

function printReport(report: Report, flags: Flags, io: Io): number {
  io.stdout(
    flags.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatReport(report, { verbose: flags.verbose })}\n`,
  );
  return report.ok ? 0 : 1;
}

async function run(command: Command, io: Io): Promise<number> {
  switch (command.name) {
    case "help":
      io.stdout(USAGE);
      return 0;
    case "check-agent": {
      const { flags } = command;
      const prompt = flags.prompt ?? DEFAULT_CHECK_AGENT.prompt;
      const options = {
        target: agentTarget(flags, command.command),
        prompt,
        permissionPrompt: flags.permissionPrompt ?? prompt,
        longPrompt: flags.longPrompt ?? DEFAULT_CHECK_AGENT.longPrompt,
        cwd: flags.cwd ?? io.cwd,
        turnTimeoutMs: flags.timeoutMs ?? DEFAULT_CHECK_AGENT.turnTimeoutMs,
        graceMs: DEFAULT_CHECK_AGENT.graceMs,
        ...(flags.only ? { only: flags.only } : {}),
      };
      const report = await checkAgent(options, (name) => {
        if (!flags.json) io.stderr(`scenario ${name}...\n`);
      });
      return printReport(report, flags, io);
    }
    default: {
      const { runOther } = await import("./commands.js");
      return runOther(command, io, printReport);
    }
  }
}

export async function main(argv: readonly string[], io: Io = defaultIo): Promise<number> {
  let command: Command;
  try {
    command = parseArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`acp-kit: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    throw error;
  }
  try {
    return await run(command, io);
  } catch (error) {
    io.stderr(`acp-kit: ${(error as Error).message ?? String(error)}\n`);
    return 1;
  }
}
