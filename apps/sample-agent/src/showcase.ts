/**
 * The showcase turn: one prompt that produces every kind of update a client must render, in a
 * fixed order: a streamed thought, a plan that updates, a read (with locations), an edit (with a
 * diff, behind a permission request in mode "ask"), a command run in a display terminal that
 * streams its output, a streamed reply, a usage update and the session title.
 */
import { join } from "node:path";
import type { StopReason, Turn } from "@acp-kit/agent";
import type { PermissionOption } from "@acp-kit/protocol/types";
import { MODE_OPTION, MODEL_OPTION, readMode, readModel, withSelectValue } from "./config.js";
import { pacer } from "./pace.js";
import { chunksOf, wordingFor } from "./wording.js";

export interface ScriptOptions {
  /** Delay between streamed pieces, in ms (0 = as fast as possible). */
  paceMs: number;
}

export const EDIT_PERMISSION_OPTIONS: PermissionOption[] = [
  { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
  { optionId: "allow_always", name: "Always allow: switch to Auto mode", kind: "allow_always" },
  { optionId: "reject_once", name: "Reject", kind: "reject_once" },
];

const OLD_LINE = 'export const greeting = "Hello";';
const NEW_LINE = 'export const greeting = "Hello, ACP!";';

export const TEST_OUTPUT = [
  "> sample@1.0.0 test",
  "> node scripts/check-greeting.mjs",
  "",
  "\u001b[32m✔\u001b[39m greeting says hello",
  "\u001b[32m✔\u001b[39m greeting mentions ACP",
  "greeting checks: all good",
];
// (Deliberately not the output of a real test runner: CI reads runners' summary lines.)

/** A title for the session from its first prompt: the first line, at most 48 characters. */
export function titleFrom(text: string): string {
  const line = text.trim().split("\n")[0]?.trim() ?? "";
  if (line.length === 0) return "Sample session";
  return line.length <= 48 ? line : `${line.slice(0, 47)}…`;
}

/** The unified diff of the scripted edit, in `git_patch` form (absolute paths, no a/ b/). */
export function greetingPatch(path: string): string {
  return [
    `diff --git ${path} ${path}`,
    `--- ${path}`,
    `+++ ${path}`,
    "@@ -1 +1 @@",
    `-${OLD_LINE}`,
    `+${NEW_LINE}`,
    "",
  ].join("\n");
}

export async function showcase(turn: Turn, options: ScriptOptions): Promise<StopReason> {
  const { session, signal } = turn;
  const step = pacer(options.paceMs, signal);
  const words = wordingFor(readModel(session.configValue(MODEL_OPTION)));
  const file = join(session.cwd, "src", "greeting.ts");

  const thought = turn.thought();
  for (const piece of chunksOf(words.thought)) {
    await thought.append(piece);
    await step();
  }

  const plan = turn.plan([
    { content: "Read src/greeting.ts", priority: "high", status: "in_progress" },
    { content: "Update the greeting", priority: "high" },
    { content: "Run the tests", priority: "medium" },
  ]);

  const read = turn.toolCall({
    title: "Read src/greeting.ts",
    name: "read_file",
    kind: "read",
    locations: [{ path: file, line: 1 }],
    rawInput: { path: file },
  });
  await read.start();
  await step();
  await read.complete({ content: [`\`\`\`ts\n${OLD_LINE}\n\`\`\``], rawOutput: { lines: 1 } });
  await plan.setStatus(0, "completed");
  await plan.setStatus(1, "in_progress");
  await step();

  const edit = turn.toolCall({
    title: "Edit src/greeting.ts",
    name: "edit_file",
    kind: "edit",
    locations: [{ path: file, line: 1 }],
    rawInput: { path: file, replace: OLD_LINE, with: NEW_LINE },
  });
  if (readMode(session.configValue(MODE_OPTION)) === "ask") {
    const decision = await edit.requestPermission({
      title: "Allow editing src/greeting.ts?",
      description: `Replace the greeting in ${file}`,
      options: EDIT_PERMISSION_OPTIONS,
    });
    if (!decision.granted) {
      // A cancelled turn ends `cancelled` whatever we do; the engine finalizes its tool calls.
      if (turn.cancelled || signal.aborted) return "cancelled";
      await edit.fail({ content: ["Permission denied: the file was left unchanged."] });
      await plan.set([
        { content: "Read src/greeting.ts", priority: "high", status: "completed" },
        { content: "Update the greeting", priority: "high", status: "cancelled" },
        { content: "Run the tests", priority: "medium", status: "cancelled" },
      ]);
      await streamReply(turn, words.declined, step);
      await turn.usage({ used: 1200, size: 200_000, cost: { amount: 0.004, currency: "USD" } });
      return "end_turn";
    }
    if (decision.option?.kind === "allow_always") {
      await session.setConfigOptions(withSelectValue(session.configOptions, MODE_OPTION, "auto"));
    }
  }
  await edit.start();
  await edit.diff([{ operation: "modify", path: file, fileType: "text", mimeType: "text/typescript" }], {
    format: "git_patch",
    text: greetingPatch(file),
  });
  await step();
  await edit.complete();
  await plan.setStatus(1, "completed");
  await plan.setStatus(2, "in_progress");

  const terminal = turn.terminal({ command: "npm test", cwd: session.cwd, size: { cols: 80, rows: 12 } });
  const run = turn.toolCall({
    title: "Run npm test",
    name: "run_command",
    kind: "execute",
    rawInput: { command: "npm test" },
    content: [{ type: "terminal", terminalId: terminal.id }],
  });
  await run.start();
  for (const line of TEST_OUTPUT) {
    await terminal.write(`${line}\r\n`);
    await step();
  }
  await terminal.exit({ exitCode: 0 });
  await run.complete({ rawOutput: { exitCode: 0 } });
  await plan.setStatus(2, "completed");

  await streamReply(turn, words.reply, step);
  await turn.usage({ used: 4200, size: 200_000, cost: { amount: 0.012, currency: "USD" } });
  if (session.data.titled !== true) {
    session.data.titled = true;
    await session.updateInfo({ title: titleFrom(turn.text) });
  }
  return "end_turn";
}

export async function streamReply(turn: Turn, text: string, step: () => Promise<void>): Promise<void> {
  const reply = turn.message();
  for (const piece of chunksOf(text)) {
    await reply.append(piece);
    await step();
  }
}
