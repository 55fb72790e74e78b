export * from "./errors.js";
export type * from "./transport.js";
