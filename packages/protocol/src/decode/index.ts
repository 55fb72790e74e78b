// Runtime shared by the generated decoders (src/generated/decoders.ts). Public: DecodeResult and
// DecodeError; the rest is the small vocabulary the generated code is written in.
export type { DecodeError, DecodeResult } from "./result.js";
export { FAIL, type Fail, fail, failAt, up, saveFailure, restoreFailure, deeperFailure, type FailureSnapshot } from "./failure.js";
export { toResult } from "./to-result.js";
export { isObject, copyObject, setOwn, ownValue, type JsonRecord } from "./objects.js";
export { isUri, isDateTime, isRegexSource, codePointLength } from "./formats.js";
