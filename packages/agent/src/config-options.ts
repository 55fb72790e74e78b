/**
 * Session config options: the values a client may set with `session/set_config_option`.
 * Unknown option, a value the option does not offer, or a value type that does not fit the
 * option's type is refused with -32602 and changes nothing.
 */
import { RequestError } from "@acp-kit/protocol/jsonrpc";
import type { SessionConfigOption } from "@acp-kit/protocol/types";

/** Every value id a select option offers, flat or grouped (none for another type). */
export function selectValues(option: SessionConfigOption): string[] {
  if (option.type !== "select") return [];
  const values: string[] = [];
  for (const item of option.options) {
    if ("options" in item) for (const inner of item.options) values.push(inner.value);
    else values.push(item.value);
  }
  return values;
}

/** The current value of an option (`undefined` for an unknown id or an unknown option type). */
export function configValue(options: readonly SessionConfigOption[], configId: string): string | boolean | undefined {
  const value = options.find((o) => o.configId === configId)?.currentValue;
  return typeof value === "string" || typeof value === "boolean" ? value : undefined;
}

/**
 * Returns the option list with `configId` set to `value`, or throws -32602.
 * `type` is the request's value type: `id` for select options, `boolean` for boolean options.
 */
export function withConfigValue(
  options: readonly SessionConfigOption[],
  configId: string,
  type: string,
  value: unknown,
): SessionConfigOption[] {
  const index = options.findIndex((o) => o.configId === configId);
  const option = options[index];
  if (option === undefined) throw RequestError.invalidParams(`Unknown config option "${configId}"`, { configId });
  const next = [...options];
  next[index] = withValue(option, configId, type, value);
  return next;
}

function withValue(option: SessionConfigOption, configId: string, type: string, value: unknown): SessionConfigOption {
  if (option.type === "select") {
    if (type !== "id" || typeof value !== "string") {
      throw RequestError.invalidParams(
        `Config option "${configId}" is a select: set it with type "id" and a string value`,
        { configId },
      );
    }
    if (!selectValues(option).includes(value)) {
      throw RequestError.invalidParams(`Config option "${configId}" has no value "${value}"`, { configId, value });
    }
    return { ...option, currentValue: value };
  }
  if (option.type === "boolean") {
    if (type !== "boolean" || typeof value !== "boolean") {
      throw RequestError.invalidParams(
        `Config option "${configId}" is a boolean: set it with type "boolean" and a boolean value`,
        { configId },
      );
    }
    return { ...option, currentValue: value };
  }
  throw RequestError.invalidParams(
    `Config option "${configId}" has type "${option.type}", which this agent cannot set`,
    { configId },
  );
}
