// @acp-kit/sample-client: the terminal client as a library (the CLI is bin.ts).
export { runClient, exitCodeFor, CLIENT_INFO, type ClientIo } from "./app.js";
export { parseClientArgs, CLIENT_USAGE, type ClientCliOptions, type PermissionPolicy } from "./cli-args.js";
export * from "./render.js";
export { tapTransport, wireLines, type WireDirection } from "./wire-tap.js";
export { automaticChoice, selected } from "./permission-policy.js";
export { COLOR, PLAIN, stripAnsi as stripAnsiCodes, rowsOf, type Style } from "./style.js";
