/** Terminals: `terminal_update` patches (with full `output` snapshots) and `terminal_output_chunk`s. */
import type {
  SessionUpdate,
  TerminalCapabilities,
  TerminalExitStatus,
  TerminalSize,
  TerminalUpdate,
} from "../../generated/types.js";
import { encodeBase64 } from "../base64.js";
import { ByteBuffer } from "./byte-buffer.js";
import { PatchedEntity, patchField, type UpdateOf } from "./patch.js";

const KNOWN_FIELDS: ReadonlySet<string> = new Set([
  "sessionUpdate",
  "terminalId",
  "command",
  "cwd",
  "output",
  "exitStatus",
  "size",
  "capabilities",
  "_meta",
]);

/**
 * One terminal. Patched fields keep the last value sent (`null` clears the field); the output is
 * bytes: a snapshot replaces all of them, each chunk is decoded on its own and appended (base64
 * strings are never concatenated).
 */
export class TerminalState extends PatchedEntity {
  readonly type = "terminal";
  command?: string | null;
  cwd?: string | null;
  exitStatus?: TerminalExitStatus | null;
  size?: TerminalSize | null;
  capabilities?: TerminalCapabilities | null;
  /** `undefined`: never reported; `null`: cleared by the last snapshot. */
  output: ByteBuffer | null | undefined;
  /** The `_meta` of the last output snapshot, until a chunk changes the bytes. */
  outputMeta: { [key: string]: unknown } | null | undefined;

  constructor(readonly terminalId: string) {
    super();
  }

  /**
   * Applies a patch. `output` is the decoded snapshot (`null` clears, `undefined` keeps: absent,
   * or not decodable, which the caller reports). Returns whether what a reader sees changed.
   */
  patch(update: TerminalUpdate, output: Uint8Array | null | undefined): boolean {
    let changed = patchField(this, "command", update.command);
    changed = patchField(this, "cwd", update.cwd) || changed;
    changed = patchField(this, "exitStatus", update.exitStatus) || changed;
    changed = patchField(this, "size", update.size) || changed;
    changed = patchField(this, "capabilities", update.capabilities) || changed;
    if (output === null) {
      changed = (this.output?.length ?? 0) > 0 || changed;
      this.output = null;
      this.outputMeta = undefined;
    } else if (output !== undefined) {
      this.output ??= new ByteBuffer();
      changed = this.output.replace(output) || changed;
      this.outputMeta = update.output?._meta;
    }
    return this.settle(update, changed, KNOWN_FIELDS);
  }

  /** An output chunk's decoded bytes, appended. Returns whether any byte was added. */
  append(bytes: Uint8Array): boolean {
    if (bytes.length === 0) return false;
    this.output ??= new ByteBuffer();
    this.output.append(bytes);
    this.outputMeta = undefined;
    this.revision++;
    return true;
  }

  /** The output bytes a reader sees (a copy). */
  bytes(): Uint8Array {
    return this.output?.bytes() ?? new Uint8Array(0);
  }

  /** The one `terminal_update` that rebuilds this terminal, its output as one snapshot. */
  toUpdate(): SessionUpdate {
    const update: UpdateOf<"terminal_update"> = { sessionUpdate: "terminal_update", terminalId: this.terminalId };
    if (this.command !== undefined) update.command = this.command;
    if (this.cwd !== undefined) update.cwd = this.cwd;
    if (this.exitStatus !== undefined) update.exitStatus = this.exitStatus;
    if (this.size !== undefined) update.size = this.size;
    if (this.capabilities !== undefined) update.capabilities = this.capabilities;
    if (this.output === null) update.output = null;
    else if (this.output !== undefined) {
      const data = encodeBase64(this.output.bytes());
      update.output = this.outputMeta === undefined ? { data } : { data, _meta: this.outputMeta };
    }
    return this.withRest(update);
  }
}
