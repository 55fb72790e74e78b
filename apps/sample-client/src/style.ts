/** ANSI styling that can be switched off, and measuring what a styled line occupies. */
import { stripVTControlCharacters } from "node:util";
import { rowsAt } from "./text-width.js";

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

/** The text without terminal escape sequences (CSI, OSC, ...), as Node's util strips them. */
export function stripAnsi(text: string): string {
  return stripVTControlCharacters(text);
}

/** Terminal rows a line takes at `width` columns (one per started row; 1 for an empty line). */
export function rowsOf(line: string, width: number): number {
  return rowsAt(stripAnsi(line), width);
}
