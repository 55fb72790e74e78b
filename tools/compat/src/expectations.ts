// What each cell is expected to do today. A cell listed `pass` fails the suite when it fails; a
// cell listed with a defect is a known failure, reported but not fatal. After a fix is merged,
// delete its `defect` (the cell then must pass); a known failure that passes is reported as
// "now passes" so it can be flipped.
export type Expectation = { expect: "pass" } | { expect: "fail"; defect: string };

const PASS: Expectation = { expect: "pass" };
const known = (defect: string): Expectation => ({ expect: "fail", defect });

const CHECK_V1 = "issue 29: acp-kit check speaks only v2";
// Shows when qwen-code's available_commands_update lands between the reply's chunks, which
// depends on timing: the cell fails in most runs, and passes ("now passes") in some.
const SPLIT_REPLY = "issue 28 #7: a session-level update between chunks splits one reply into two messages";

/** Keyed `peer/cell`. Every cell the suite runs must be listed (an unlisted one is a harness error). */
export const EXPECTATIONS: Record<string, Expectation> = {
  "gemini-cli/initialize": PASS,
  "gemini-cli/turn": PASS,
  "gemini-cli/tool-allowed": PASS,
  "gemini-cli/tool-rejected": PASS,
  "gemini-cli/cancel": PASS,
  "gemini-cli/resume": known(
    'peer: gemini-cli 0.61.0\'s session/load in a new process finds no history of the session (-32603, "No previous sessions found for this project") or replays the prompt only',
  ),
  "gemini-cli/check-agent": known(CHECK_V1),

  "qwen-code/initialize": PASS,
  "qwen-code/turn": known(SPLIT_REPLY),
  "qwen-code/tool-allowed": known(SPLIT_REPLY),
  "qwen-code/tool-rejected": known(
    "issue 28 #8: the reply after a rejected permission is appended to the empty message before the tool call",
  ),
  "qwen-code/cancel": PASS,
  "qwen-code/resume": known(
    "peer: qwen-code 0.15.10 writes the reply to its history after answering session/prompt; ended right after the turn, it replays the prompt only (it passes when the write wins the race)",
  ),
  "qwen-code/check-agent": known(CHECK_V1),

  "copilot/initialize": PASS,
  "copilot/turn": PASS,
  "copilot/tool-allowed": PASS,
  "copilot/tool-rejected": PASS,
  "copilot/cancel": PASS,
  "copilot/resume": PASS,
  "copilot/check-agent": known(CHECK_V1),

  "auggie/initialize": PASS,
  "auggie/auth-refusal": PASS,
  "auggie/check-agent": known(CHECK_V1),

  "acpx/turn": PASS,
  "acpx/permission-rejected": known(
    'issue 28 #1: plan entries go out with status "cancelled" after a rejected permission',
  ),
  "acpx/ctrl-c": known("issue 28 #5: a terminal's SIGINT reaches the stdio agent and kills it before session/cancel"),
  "acpx/check-client": known(CHECK_V1),
};
