/** The commands beyond `check agent`, loaded on demand. */
import type { Command, Flags } from "./args.js";
import { DEFAULT_CHECK_AGENT } from "./check-agent/options.js";
import { checkClient } from "./check-client/run.js";
import { agentTarget, type Io } from "./main.js";
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
    case "record": {
      const { record } = await import("./record.js");
      const out = command.flags.out ?? `acp-transcript-${new Date().toISOString().replace(/[:.]/g, "-")}.jsonl`;
      return record({ command: command.command, out, onNotice: io.stderr });
    }
    case "replay": {
      const { replayCommand, formatReplay } = await import("./replay-command.js");
      const result = await replayCommand(
        command.file,
        agentTarget(command.flags, command.command, command.flags.cwd),
        command.flags.timeoutMs ?? 10_000,
      );
      io.stdout(command.flags.json ? `${JSON.stringify(result, null, 2)}\n` : `${formatReplay(result)}\n`);
      return result.equal ? 0 : 1;
    }
    case "inspect": {
      const { startInspector } = await import("./inspect/server.js");
      const inspector = await startInspector({
        target: agentTarget(command.flags, command.command, command.flags.cwd),
        cwd: command.flags.cwd ?? io.cwd,
        ...(command.flags.port !== undefined ? { port: command.flags.port } : {}),
        onNotice: io.stderr,
      });
      io.stdout(`acp-kit inspect: open ${inspector.url}\n(each page load starts a fresh agent; Ctrl-C stops)\n`);
      await new Promise<void>((resolve) => {
        process.once("SIGINT", resolve);
        process.once("SIGTERM", resolve);
      });
      await inspector.close();
      return 0;
    }
    default:
      throw new Error(`${command.name} is not available in this build`);
  }
}
