/**
 * How many terminal columns text takes: per grapheme (what the user sees as one character),
 * 2 for East Asian wide / fullwidth characters and emoji shown as emoji, 0 for marks and
 * zero-width characters, 1 otherwise. Escape sequences must be stripped first.
 */
import { eastAsianWidth } from "get-east-asian-width";

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const EMOJI = /\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F|\p{Regional_Indicator}{2}/u;
// Combining marks, format characters (zero-width joiner, ...), variation selectors, controls.
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\p{Cc}]+$/u; // variation selectors are Mn

export function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

export function graphemeWidth(grapheme: string): number {
  if (ZERO_WIDTH.test(grapheme)) return 0;
  if (EMOJI.test(grapheme)) return 2;
  return eastAsianWidth(grapheme.codePointAt(0) ?? 0);
}

export function displayWidth(text: string): number {
  let width = 0;
  for (const g of graphemes(text)) width += graphemeWidth(g);
  return width;
}

/** Rows `text` (one line, no escapes) takes at `columns`: a wide character never splits across rows. */
export function rowsAt(text: string, columns: number): number {
  const width = Math.max(1, columns);
  let rows = 1;
  let column = 0;
  for (const g of graphemes(text)) {
    const w = Math.min(graphemeWidth(g), width);
    if (column + w > width) {
      rows++;
      column = 0;
    }
    column += w;
  }
  return rows;
}
