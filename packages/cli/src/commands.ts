/** The commands beyond `check agent`, loaded on demand. */
import type { Command, Flags } from "./args.js";
import type { Io } from "./main.js";
import type { Report } from "./report.js";

export async function runOther(
  command: Command,
  _io: Io,
  _print: (report: Report, flags: Flags, io: Io) => number,
): Promise<number> {
  throw new Error(`${command.name} is not available in this build`);
}
