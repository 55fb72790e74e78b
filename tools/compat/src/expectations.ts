// What each cell is expected to do today. A cell listed `pass` fails the suite when it fails; a
// cell listed with a defect is a known failure, reported but not fatal. After a fix is merged,
// delete its `defect` (the cell then must pass); a known failure that passes is reported as
// "now passes" so it can be flipped.
export type Expectation = { expect: "pass" } | { expect: "fail"; defect: string };

const PASS: Expectation = { expect: "pass" };
const known = (defect: string): Expectation => ({ expect: "fail", defect });

// Blocking rows that `check agent` reports against a real agent and that are not yet traced to
// the agent or to the checker (the client cells of the same agent pass).
const CHECK_ROWS = (rows: string) =>
  known(`open: check agent's blocking rows against this agent (${rows}), not yet traced`);

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
  "gemini-cli/check-agent": CHECK_ROWS("session.load: the same refusal as the resume cell"),

  "qwen-code/initialize": PASS,
  "qwen-code/turn": PASS,
  "qwen-code/tool-allowed": PASS,
  "qwen-code/tool-rejected": PASS,
  "qwen-code/cancel": PASS,
  "qwen-code/resume": known(
    "peer: qwen-code 0.15.10 writes the reply to its history after answering session/prompt; ended right after the turn, it replays the prompt only (it passes when the write wins the race)",
  ),
  "qwen-code/check-agent": CHECK_ROWS("session.resume: the same race as the resume cell"),

  "copilot/initialize": PASS,
  "copilot/turn": PASS,
  "copilot/tool-allowed": PASS,
  "copilot/tool-rejected": PASS,
  "copilot/cancel": PASS,
  "copilot/resume": PASS,
  "copilot/check-agent": CHECK_ROWS("session.load, cancel.response-stop-reason, cancel.stop-reason-cancelled"),

  "auggie/initialize": PASS,
  "auggie/auth-refusal": PASS,
  "auggie/check-agent": PASS,

  "acpx/turn": PASS,
  "acpx/permission-rejected": PASS,
  "acpx/ctrl-c": PASS,
  "acpx/check-client": PASS,
};
