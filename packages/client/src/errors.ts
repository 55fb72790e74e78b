/**
 * Local errors of the client. A refusal (`CapabilityNotSupportedError`, shared with the agent and
 * defined in `@acp-kit/protocol`) is thrown before anything is sent: the agent never sees the call.
 * (Wire errors from the agent are `RequestError`s; a dead connection is a `ConnectionError`;
 * both come from `@acp-kit/protocol`.) Every one extends `LocalError`, with a literal `name`.
 */
import { LocalError } from "@acp-kit/protocol/jsonrpc";

export { CapabilityNotSupportedError } from "@acp-kit/protocol";

/**
 * A handle's update iterator fell `limit` updates behind while the connection could not pause
 * reading (this client was waiting for a response of its own). The iterator's buffer was released;
 * the store still holds every update and the handle's `done` still settles.
 */
export class UpdateBufferOverflowError extends LocalError {
  override readonly name = "UpdateBufferOverflowError";
  readonly limit: number;

  constructor(limit: number) {
    super(`The update iterator fell ${limit} updates behind and was stopped; read the session store instead`);
    this.limit = limit;
  }
}
