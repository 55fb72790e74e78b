/**
 * What a session has one of, each replaced or patched by its own update variant: the available
 * commands and the config options (replaced whole), the usage (`cost` three-state) and the
 * session info (`title`, `updatedAt` three-state, `_meta` patched). In a compacted history each
 * sits at the position of its last update.
 */
import type { AvailableCommand, Cost, SessionConfigOption, SessionUpdate } from "../../generated/types.js";
import { jsonEqual } from "../json-equal.js";
import { PatchedEntity, patchField, type UpdateOf } from "./patch.js";

/** Where a session-level state sits in the fold's slots (it moves to the end on every update). */
interface Positioned {
  slot: number;
}

export class CommandsState implements Positioned {
  readonly type = "available_commands";
  slot = -1;
  update: UpdateOf<"available_commands_update"> = { sessionUpdate: "available_commands_update", availableCommands: [] };

  get commands(): readonly AvailableCommand[] {
    return this.update.availableCommands;
  }

  /** Returns whether the list changed (an equal list keeps the stored one, so readers keep its identity). */
  replace(commands: readonly AvailableCommand[], meta?: UpdateOf<"available_commands_update">["_meta"]): boolean {
    const changed = !jsonEqual(this.commands, commands);
    if (!changed && jsonEqual(this.update._meta, meta)) return false;
    this.update = { sessionUpdate: "available_commands_update", availableCommands: commands.slice() };
    if (meta !== undefined) this.update._meta = meta;
    return changed;
  }

  toUpdate(): SessionUpdate {
    return this.update;
  }
}

export class ConfigOptionsState implements Positioned {
  readonly type = "config_options";
  slot = -1;
  update: UpdateOf<"config_option_update"> = { sessionUpdate: "config_option_update", configOptions: [] };

  get options(): readonly SessionConfigOption[] {
    return this.update.configOptions;
  }

  /** Returns whether the list changed (an equal list keeps the stored one, so readers keep its identity). */
  replace(options: readonly SessionConfigOption[], meta?: UpdateOf<"config_option_update">["_meta"]): boolean {
    const changed = !jsonEqual(this.options, options);
    if (!changed && jsonEqual(this.update._meta, meta)) return false;
    this.update = { sessionUpdate: "config_option_update", configOptions: options.slice() };
    if (meta !== undefined) this.update._meta = meta;
    return changed;
  }

  toUpdate(): SessionUpdate {
    return this.update;
  }
}

export class UsageState implements Positioned {
  readonly type = "usage";
  slot = -1;
  /** Increments on every change a reader can see. */
  revision = 0;

  constructor(
    /** The latest `usage_update`: `used` and `size` are always sent. */
    public update: UpdateOf<"usage_update">,
    /** `cost` as last sent (`null` cleared it); an update without one keeps it. */
    public cost: Cost | null | undefined = update.cost,
  ) {}

  get used(): number {
    return this.update.used;
  }

  get size(): number {
    return this.update.size;
  }

  replace(update: UpdateOf<"usage_update">): boolean {
    const cost = update.cost === undefined ? this.cost : update.cost;
    const changed =
      this.used !== update.used || this.size !== update.size || !jsonEqual(this.cost ?? null, cost ?? null);
    this.update = update;
    this.cost = cost;
    if (changed) this.revision++;
    return changed;
  }

  toUpdate(): SessionUpdate {
    const { cost: _sent, ...update } = this.update;
    return this.cost === undefined ? update : { ...update, cost: this.cost };
  }
}

const INFO_FIELDS: ReadonlySet<string> = new Set(["sessionUpdate", "title", "updatedAt", "_meta"]);

export class SessionInfoState extends PatchedEntity implements Positioned {
  readonly type = "session_info";
  slot = -1;
  title?: string | null;
  updatedAt?: string | null;

  patch(update: UpdateOf<"session_info_update">): boolean {
    let changed = patchField(this, "title", update.title);
    changed = patchField(this, "updatedAt", update.updatedAt) || changed;
    return this.settle(update, changed, INFO_FIELDS);
  }

  toUpdate(): SessionUpdate {
    const update: UpdateOf<"session_info_update"> = { sessionUpdate: "session_info_update" };
    if (this.title !== undefined) update.title = this.title;
    if (this.updatedAt !== undefined) update.updatedAt = this.updatedAt;
    return this.withRest(update);
  }
}
