/**
 * One decoder and one strict validator per schema type (`decodeSessionUpdate`,
 * `validatePromptResponse`, …), and the `decoders` / `validators` tables keyed by wire method.
 * Generated from the pinned schema; the rules are in docs/decoding.md.
 *
 * @module @acp-kit/protocol/decoders
 */

export * from "./generated/decoders.js";
