/** ANSI styling that can be switched off, and measuring what a styled line occupies. */

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  italic(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  blue(text: string): string;
  magenta(text: string): string;
  cyan(text: string): string;
}

const sgr = (open: number, close: number) => (text: string) =>
  text.length === 0 ? text : `\u001b[${open}m${text}\u001b[${close}m`;

export const COLOR: Style = {
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  italic: sgr(3, 23),
  red: sgr(31, 39),
  green: sgr(32, 39),
  yellow: sgr(33, 39),
  blue: sgr(34, 39),
  magenta: sgr(35, 39),
  cyan: sgr(36, 39),
};

const identity = (text: string) => text;
export const PLAIN: Style = {
  bold: identity,
  dim: identity,
  italic: identity,
  red: identity,
  green: identity,
  yellow: identity,
  blue: identity,
  magenta: identity,
  cyan: identity,
};

// CSI sequences, OSC sequences (BEL or ST terminated), and other two-byte escapes.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences is the point.
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]/g;

export function stripAnsi(text: string): string {
  return text.replace(ESCAPES, "");
}

/** Terminal rows a line takes at `width` columns (one per started row; 1 for an empty line). */
export function rowsOf(line: string, width: number): number {
  const length = [...stripAnsi(line)].length;
  return Math.max(1, Math.ceil(length / Math.max(1, width)));
}
