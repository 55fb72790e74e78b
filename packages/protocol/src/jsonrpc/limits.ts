/**
 * Defaults of the bounds the JSON-RPC connection puts on what a peer controls. Every one is
 * overridable through `ConnectionOptions`; docs/limits.md lists them with their reasons.
 */

/** Entries one batch may hold; a longer batch is refused whole with -32600. */
export const DEFAULT_MAX_BATCH_ENTRIES = 1024;

/** Characters of peer-supplied text (a method name, an id) an error message may repeat. */
export const DEFAULT_MAX_ECHO_LENGTH = 256;

/** Characters of an unparsable payload a warning shows. */
export const PAYLOAD_PREVIEW_LENGTH = 80;

/**
 * `text` cut to `max` characters, with a marker saying how long it really was, so an error
 * about a megabyte-long method name costs a few hundred bytes, not two megabytes.
 */
export function clipText(text: string, max: number = DEFAULT_MAX_ECHO_LENGTH): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length} characters)`;
}
