/**
 * Config options between v1 (`id`, select groups keyed `group`) and v2 (`configId`, `groupId`),
 * and v1 session modes, which v2 has no room for and exposes as a `select` config option.
 */
import type * as V2 from "../generated/types.js";
import type * as V1 from "../generated/v1/types.js";

/** The config option a v1 agent's session modes appear as. */
export const MODE_CONFIG_ID = "mode";

function isGroupList(options: V1.SessionConfigSelectOptions): options is V1.SessionConfigSelectGroup[] {
  return options.some((entry) => "group" in entry);
}

function isV2GroupList(options: V2.SessionConfigSelectOptions): options is V2.SessionConfigSelectGroup[] {
  return options.some((entry) => "groupId" in entry);
}

/** v1 config option (`id`) → v2 (`configId`). */
export function configOptionToV2(option: V1.SessionConfigOption): V2.SessionConfigOption {
  if (option.type === "boolean") {
    const { id, ...rest } = option;
    return { configId: id, ...rest };
  }
  const { id, options, ...rest } = option;
  return {
    configId: id,
    ...rest,
    options: isGroupList(options) ? options.map(({ group, ...entry }) => ({ groupId: group, ...entry })) : options,
  };
}

/** v2 config option → v1, or undefined for a type v1 does not know. */
export function configOptionToV1(option: V2.SessionConfigOption): V1.SessionConfigOption | undefined {
  switch (option.type) {
    case "boolean": {
      const { configId, ...rest } = option;
      return { id: configId, ...rest };
    }
    case "select": {
      const { configId, options, ...rest } = option;
      return {
        id: configId,
        ...rest,
        options: isV2GroupList(options)
          ? options.map(({ groupId, ...entry }) => ({ group: groupId, ...entry }))
          : options,
      };
    }
    default:
      return undefined;
  }
}

/** v1 session modes as the v2 `select` option {@link MODE_CONFIG_ID} (category `mode`). */
export function modesToConfigOption(modes: V1.SessionModeState): V2.SessionConfigOption {
  return {
    configId: MODE_CONFIG_ID,
    name: "Mode",
    category: "mode",
    type: "select",
    currentValue: modes.currentModeId,
    options: modes.availableModes.map(
      (mode): V2.SessionConfigSelectOption =>
        mode.description == null
          ? { value: mode.id, name: mode.name }
          : { value: mode.id, name: mode.name, description: mode.description },
    ),
  };
}
