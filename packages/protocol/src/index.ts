export * from "./jsonrpc/index.js";
