/** The commands beyond `check agent`, loaded on demand. */
import type { Command, Flags } from "./args.js";
import { DEFAULT_CHECK_AGENT } from "./check-agent/options.js";
import { checkClient } from "./check-client/run.js";
import type { Io } from "./main.js";
import type { Report } from "./report.js";

export async function runOther(
  command: Command,
  io: Io,
  print: (report: Report, flags: Flags, io: Io) => number,
): Promise<number> {
  switch (command.name) {
    case "check-client": {
      const { flags } = command;
      const report = await checkClient(
        {
          command: command.command,
          ws: flags.ws === true,
          cwd: flags.cwd ?? io.cwd,
          turnTimeoutMs: flags.timeoutMs ?? DEFAULT_CHECK_AGENT.turnTimeoutMs,
          cancelSignal: (flags.cancelSignal ?? "SIGINT") as NodeJS.Signals,
          ...(flags.only ? { only: flags.only } : {}),
        },
        (name) => {
          if (!flags.json) io.stderr(`scenario ${name}...\n`);
        },
      );
      return print(report, flags, io);
    }
    default:
      throw new Error(`${command.name} is not available in this build`);
  }
}
