// @acp-kit/sample-client: the terminal client as a library (the CLI is bin.ts).
export { CLIENT_INFO, type ClientIo, exitCodeFor, runClient } from "./app.js";
export { CLIENT_USAGE, type ClientCliOptions, type PermissionPolicy, parseClientArgs } from "./cli-args.js";
export { automaticChoice, selected } from "./permission-policy.js";
export * from "./render.js";
export { COLOR, PLAIN, rowsOf, type Style, stripAnsi } from "./style.js";
export { tapTransport, type WireDirection, wireLines } from "./wire-tap.js";
