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
