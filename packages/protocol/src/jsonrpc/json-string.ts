/**
 * What `JSON.stringify` may escape in a string: `"`, `\`, the controls, and lone surrogates. Any
 * surrogate counts (paired ones are not escaped, but telling them apart costs more than it saves),
 * so such text takes `JSON.stringify`'s path, which is always right.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what JSON escapes
const MAY_NEED_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;

/**
 * The JSON text of a string: exactly what `JSON.stringify(text)` returns, without its cost when
 * nothing needs escaping. A streamed reply is mostly short plain text; for ~100 characters a
 * regular-expression test and a concatenation take under half of `JSON.stringify`'s time, and
 * allocate no result buffer. The serializers of text chunks (the wire's, a session log's) quote
 * every chunk's text with it.
 *
 * @example
 * ```ts
 * jsonString("plain"); // '"plain"'
 * jsonString('say "hi"\n'); // '"say \\"hi\\"\\n"', as JSON.stringify writes it
 * ```
 */
export function jsonString(text: string): string {
  return MAY_NEED_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}
