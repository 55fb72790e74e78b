#!/usr/bin/env node
/** `acp-sample-client`: a terminal ACP v2 client. See `--help`. */
import { runClient } from "./app.js";
import { CLIENT_USAGE, type ClientCliOptions, parseClientArgs } from "./cli-args.js";

let options: ClientCliOptions;
try {
  options = parseClientArgs(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`acp-sample-client: ${(error as Error).message}\n\n${CLIENT_USAGE}`);
  process.exit(2);
}
if (options.help) {
  process.stdout.write(CLIENT_USAGE);
  process.exit(0);
}
runClient(options, {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
})
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    process.stderr.write(`acp-sample-client: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exit(1);
  });
