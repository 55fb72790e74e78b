// Runtime shared by the generated decoders (src/generated/decoders.ts). Public: DecodeResult and
// DecodeError; the rest is the small vocabulary the generated code is written in.

export { DEFAULT_MAX_DEPTH, exceedsDepth } from "./depth.js";
export {
  deeperFailure,
  FAIL,
  type Fail,
  type FailureSnapshot,
  fail,
  failAt,
  restoreFailure,
  saveFailure,
  up,
} from "./failure.js";
export { codePointLength, isDateTime, isRegexSource, isUri } from "./formats.js";
export { copyObject, isObject, type JsonRecord, ownValue, setOwn } from "./objects.js";
export type { DecodeError, DecodeResult } from "./result.js";
export { toResult } from "./to-result.js";
