/**
 * Session config options: the values a client may set with `session/set_config_option`.
 * Unknown option, a value the option does not offer, or a value type that does not fit the
 * option's type is refused with -32602 and changes nothing.
 */
import { RequestError } from "@acp-kit/protocol/jsonrpc";
import type { SessionConfigOption } from "@acp-kit/protocol/types";

interface SelectValue {
  value: string;
}

/** Every value id a select option offers, flat or grouped. */
export function selectValues(option: SessionConfigOption): string[] {
  const options = (option as { options?: unknown }).options;
  if (!Array.isArray(options)) return [];
  const values: string[] = [];
  for (const item of options as Record<string, unknown>[]) {
    if (Array.isArray(item.options)) for (const inner of item.options as SelectValue[]) values.push(inner.value);
    else if (typeof item.value === "string") values.push(item.value);
  }
  return values;
}

/** The current value of an option (`undefined` for an unknown id or an unknown option type). */
export function configValue(options: readonly SessionConfigOption[], configId: string): string | boolean | undefined {
  const option = options.find((o) => o.configId === configId) as { currentValue?: unknown } | undefined;
  const value = option?.currentValue;
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
  const optionType = (option as { type: string }).type;
  if (optionType === "select") {
    if (type !== "id" || typeof value !== "string") {
      throw RequestError.invalidParams(
        `Config option "${configId}" is a select: set it with type "id" and a string value`,
        { configId },
      );
    }
    if (!selectValues(option).includes(value)) {
      throw RequestError.invalidParams(`Config option "${configId}" has no value "${value}"`, { configId, value });
    }
  } else if (optionType === "boolean") {
    if (type !== "boolean" || typeof value !== "boolean") {
      throw RequestError.invalidParams(
        `Config option "${configId}" is a boolean: set it with type "boolean" and a boolean value`,
        { configId },
      );
    }
  } else {
    throw RequestError.invalidParams(
      `Config option "${configId}" has type "${optionType}", which this agent cannot set`,
      { configId },
    );
  }
  const next = [...options];
  next[index] = { ...option, currentValue: value } as SessionConfigOption;
  return next;
}
