import type { SessionConfigOption } from "@acp-kit/protocol/types";

/**
 * The value to send for `--config ID=VALUE` (or `:config`): `true`/`false` for a boolean
 * option, one of the listed value ids for a select. A bad id or value is refused here, before
 * anything is sent, with the valid ones listed.
 */
export function configValueFor(
  options: readonly SessionConfigOption[],
  configId: string,
  text: string,
): string | boolean {
  const option = options.find((o) => o.configId === configId);
  if (option === undefined) {
    const ids = options.map((o) => o.configId);
    throw new Error(
      `The agent has no config option "${configId}"${ids.length > 0 ? ` (it has: ${ids.join(", ")})` : ""}`,
    );
  }
  if (option.type === "boolean") {
    if (text !== "true" && text !== "false")
      throw new Error(`Config option "${configId}" is a boolean: use true or false`);
    return text === "true";
  }
  if (option.type === "select") {
    const values = option.options
      .flatMap((entry) => ("options" in entry ? entry.options : [entry]))
      .map((o) => o.value);
    if (!values.includes(text))
      throw new Error(`Config option "${configId}" has no value "${text}": use one of ${values.join(", ")}`);
  }
  return text; // an extension option type: the agent decides
}

/**
 * What an option is set to, for people: a select's current value by its name (agents use
 * opaque ids such as `https://…/session-modes#agent`), a boolean as true/false.
 */
export function currentValueName(option: SessionConfigOption): string {
  const value = (option as { currentValue?: unknown }).currentValue;
  if (typeof value === "boolean") return String(value);
  if (typeof value !== "string") return "?";
  if (option.type !== "select") return value;
  const chosen = option.options
    .flatMap((entry) => ("options" in entry ? entry.options : [entry]))
    .find((o) => o.value === value);
  return chosen?.name ?? value;
}
