// Same helper as apps/sample-client/src/parse-cli-args.ts (the two apps share no package).
import { type ParseArgsConfig, parseArgs } from "node:util";

type Options = NonNullable<ParseArgsConfig["options"]>;
type Parsed<O extends Options> = ReturnType<typeof parseArgs<{ options: O; allowPositionals: true; strict: true }>>;

/**
 * `node:util` parseArgs (strict), with its errors reworded to name the flag the way the rest
 * of this CLI's messages do. `hint` is added to an unknown-option error.
 */
export function parseCliArgs<O extends Options>(argv: readonly string[], options: O, hint: string): Parsed<O> {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = (error as Error).message;
    const flag = /'(-[^' ]+)/.exec(message)?.[1]?.replace(/^(--[^ ]+) .*$/, "$1");
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") throw new Error(`Unknown argument "${flag}" (${hint})`);
    if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && flag) {
      const name = flag.split(/[ ,]/)[0];
      throw new Error(message.includes("argument missing") ? `${name} needs a value` : `${name}: ${message}`);
    }
    throw error;
  }
}
