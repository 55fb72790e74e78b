/**
 * A display-only terminal owned by the agent: the client renders what the agent reports and
 * never runs anything. Output bytes go out as base64 `terminal_output_chunk`s; `exit()` reports
 * the exit status. `capabilities.cancel` is advertised while an `onCancel` handler is set and the
 * terminal has not exited.
 */
import { encodeBase64 } from "@acp-kit/protocol";
import type { TerminalExitStatus, TerminalSize, TerminalUpdate } from "@acp-kit/protocol/types";
import type { UpdateOwner } from "../update-owner.js";
import { definedFields } from "./content.js";
import { type Detached, EntityReporting } from "./reporting.js";

export interface TerminalInit {
  terminalId?: string;
  command?: string;
  /** Absolute path. */
  cwd?: string;
  size?: TerminalSize;
  _meta?: Record<string, unknown> | null;
  /** Makes the terminal cancellable (`terminal/cancel`); should stop the process and call `exit`. */
  onCancel?: () => void | Promise<void>;
}

/** The fields a terminal update patches (`undefined` omits, `null` clears). */
type TerminalPatch = Omit<TerminalUpdate, "terminalId" | "capabilities">;

export interface TerminalHost {
  readonly owner: UpdateOwner;
  track(terminal: TerminalBuilder): void;
  /** Moves the terminal into the session's background work. */
  detach(terminal: TerminalBuilder): Detached;
}

export class TerminalBuilder {
  readonly id: string;
  readonly #host: TerminalHost;
  readonly #reporting: EntityReporting;
  #exited = false;

  /** @internal Use `turn.terminal(...)` or `session.terminal(...)`. */
  constructor(host: TerminalHost, id: string, init: TerminalInit) {
    this.#host = host;
    this.#reporting = new EntityReporting(host.owner, init.onCancel);
    this.id = id;
    const { onCancel: _onCancel, terminalId: _id, ...fields } = init;
    this.#send(fields, "terminal");
    host.track(this);
  }

  get exited(): boolean {
    return this.#exited;
  }

  /** Whether the terminal was moved into the session's background work. */
  get detached(): boolean {
    return this.#reporting.detached;
  }

  /**
   * Moves the terminal into the session's background work: its process keeps running (and
   * reporting) after the turn's idle, and it is listed in the session's `background` snapshot
   * until `exit()` is reported. Throws if it already exited.
   */
  detach(): void {
    this.#reporting.detach(this.#exited, `terminal.detach: terminal ${this.id} already exited`, () =>
      this.#host.detach(this),
    );
  }

  get cancellable(): boolean {
    return this.#reporting.cancellable;
  }

  /** @internal */
  get cancelHandler(): (() => void | Promise<void>) | undefined {
    return this.#reporting.cancelHandler;
  }

  /** Appends output bytes (a string is sent as its UTF-8 bytes). */
  write(data: Uint8Array | string): Promise<void> {
    return this.#reporting.owner.emit(
      { sessionUpdate: "terminal_output_chunk", terminalId: this.id, data: encodeBase64(data) },
      "terminal.write",
    );
  }

  /** Replaces everything shown so far with this snapshot. */
  replaceOutput(data: Uint8Array | string): Promise<void> {
    return this.#send({ output: { data: encodeBase64(data) } }, "terminal.replaceOutput");
  }

  resize(size: TerminalSize): Promise<void> {
    return this.#send({ size }, "terminal.resize");
  }

  /** Reports that the process exited (`exitCode` and/or `signal`). */
  exit(status: TerminalExitStatus = {}): Promise<void> {
    return this.#send({ exitStatus: status }, "terminal.exit");
  }

  /** Patches fields directly (`undefined` omits, `null` clears). */
  update(patch: {
    command?: string | null;
    cwd?: string | null;
    size?: TerminalSize | null;
    exitStatus?: TerminalExitStatus | null;
    _meta?: Record<string, unknown> | null;
  }): Promise<void> {
    return this.#send(patch, "terminal.update");
  }

  setCancelHandler(onCancel: (() => void | Promise<void>) | null): Promise<void> {
    this.#reporting.setCancelHandler(onCancel);
    return this.#send({}, "terminal.setCancelHandler");
  }

  #send(patch: TerminalPatch, what: string): Promise<void> {
    const update: TerminalUpdate & { sessionUpdate: "terminal_update" } = {
      sessionUpdate: "terminal_update",
      terminalId: this.id,
      ...definedFields(patch),
    };
    const exited = update.exitStatus === undefined ? this.#exited : update.exitStatus !== null;
    const capabilities = this.#reporting.capabilitiesFor(!exited);
    if (capabilities !== undefined) update.capabilities = capabilities;
    const sent = this.#reporting.owner.emit(update, what);
    this.#exited = exited;
    this.#reporting.sent(!exited);
    return sent;
  }
}
