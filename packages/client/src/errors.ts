/**
 * Local refusals. These are thrown before anything is sent: the agent never sees the call.
 * (Wire errors from the agent are `RequestError`s; a dead connection is a `ConnectionError`;
 * both come from `@acp-kit/protocol`.)
 */

/** The call needs something the agent did not advertise at `initialize` (or the entity does not offer). */
export class NotAdvertisedError extends Error {
  override readonly name = "NotAdvertisedError";
  /** The wire method that was refused, e.g. `session/delete`. */
  readonly method: string;
  /** What is missing, e.g. `agentCapabilities.session.delete`. */
  readonly requirement: string;

  constructor(method: string, requirement: string, detail?: string) {
    super(
      `${method} refused locally: the agent does not advertise ${requirement}${detail ? ` (${detail})` : ""}; nothing was sent`,
    );
    this.method = method;
    this.requirement = requirement;
  }
}

/**
 * A handle's update iterator fell `limit` updates behind while the connection could not pause
 * reading (this client was waiting for a response of its own). The iterator's buffer was released;
 * the store still holds every update and the handle's `done` still settles.
 */
export class UpdateBufferOverflowError extends Error {
  override readonly name = "UpdateBufferOverflowError";
  readonly limit: number;

  constructor(limit: number) {
    super(`The update iterator fell ${limit} updates behind and was stopped; read the session store instead`);
    this.limit = limit;
  }
}
