// @acp-kit/e2e: helpers for the end-to-end suites (real processes, real sockets).

export * from "./agents.js";
export * from "./h2-fetch.js";
export * from "./http-agents.js";
export * from "./http-proxies.js";
export * from "./interop-drivers.js";
export * from "./interop-matrix.js";
export * from "./interop-v1-drivers.js";
export * from "./normalize.js";
export * from "./paths.js";
export * from "./pg-schema.js";
export * from "./processes.js";
export * from "./tcp-balancer.js";
export * from "./tcp-proxy.js";
