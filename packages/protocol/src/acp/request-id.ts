/**
 * The request ids ACP accepts (schema `RequestId`): strings and integers, never `null`, no
 * fractions. Integers must also be safe (|n| < 2^53): beyond that `JSON.parse` already rounded
 * the id, so it could not be echoed exactly and the request is refused instead.
 */
import { isUnsafeInteger, type RequestIdRule, UNSAFE_INTEGER_ID_REFUSAL } from "../jsonrpc/messages.js";

export const ACP_REQUEST_IDS: RequestIdRule = {
  accepts: (value): value is string | number =>
    typeof value === "string" || (typeof value === "number" && Number.isSafeInteger(value)),
  refusal: (value) =>
    isUnsafeInteger(value) ? UNSAFE_INTEGER_ID_REFUSAL : "Invalid request: id must be a string or an integer",
};
