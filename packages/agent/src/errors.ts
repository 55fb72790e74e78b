/**
 * Local errors of the agent SDK. None of them is ever sent to the client: they tell the agent
 * author that their own code asked for something the protocol forbids. Like every local error of
 * acp-kit they extend `LocalError` and carry their class name as a literal `name`.
 *
 * Each carries a brand too, so that `instanceof` holds across two copies of this package in one
 * process (two entry points, a bundled and an installed copy): a store built against one copy
 * throws a `SessionBusyError` that the engine of the other must still tell apart.
 */
import { clipText, type ErrorObject, LocalError } from "@acp-kit/protocol/jsonrpc";

export { CapabilityNotSupportedError } from "@acp-kit/protocol";

/** Registered symbol: the same in every copy of the package loaded in the process. */
// `Symbol.for` is typed `symbol`; a `unique symbol` type is what lets it key a class field.
export const ERROR_BRAND: unique symbol = Symbol.for("@acp-kit/agent/error-brand") as never;

/**
 * The base of the SDK's errors: `instanceof` of one of its classes holds for its instances from
 * any copy of the package. The prototype chain decides first; a class that declares its own
 * `brand` (not a subclass of it, whose own copy's chain already decides) also takes an error
 * carrying that brand.
 */
export abstract class BrandedError extends LocalError {
  abstract readonly [ERROR_BRAND]: string;
  static readonly brand: string | undefined;
}

// Inherited by every subclass; `this` is the class `instanceof` asks about.
Object.defineProperty(BrandedError, Symbol.hasInstance, {
  value: function hasInstance(this: typeof BrandedError, value: unknown): boolean {
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    if (!Object.hasOwn(this, "brand") || typeof value !== "object" || value === null) return false;
    // Any object may carry the brand: it is read as unknown and compared.
    return (value as { [ERROR_BRAND]?: unknown })[ERROR_BRAND] === this.brand;
  },
});

/** A builder of a turn (or of agent work) was used after the turn reported `idle`. */
export class TurnEndedError extends BrandedError {
  override readonly name = "TurnEndedError";
  override readonly [ERROR_BRAND] = "TurnEndedError";
  static override readonly brand = "TurnEndedError";
  constructor(what: string) {
    super(`${what}: the turn has ended (its idle state_update was sent); nothing more may be emitted for it`);
  }
}

/** Something was emitted for a session after it was closed or its connection ended. */
export class SessionClosedError extends BrandedError {
  override readonly name = "SessionClosedError";
  override readonly [ERROR_BRAND] = "SessionClosedError";
  static override readonly brand = "SessionClosedError";
  readonly sessionId: string;
  constructor(sessionId: string) {
    super(`Session ${sessionId} is closed on this connection; nothing more may be sent about it`);
    this.sessionId = sessionId;
  }
}

/** `defineAgent(...)` was given an inconsistent definition. */
export class AgentDefinitionError extends BrandedError {
  override readonly name = "AgentDefinitionError";
  override readonly [ERROR_BRAND] = "AgentDefinitionError";
  static override readonly brand = "AgentDefinitionError";
}

/**
 * An id was about to be reused in a session where the protocol requires a new one: a message id
 * for a new message, a `toolCallId` for a new tool call, a `terminalId` for a new terminal.
 * Nothing was sent.
 */
export class DuplicateIdError extends BrandedError {
  override readonly name = "DuplicateIdError";
  override readonly [ERROR_BRAND] = "DuplicateIdError";
  static override readonly brand = "DuplicateIdError";
  readonly kind: "message" | "tool_call" | "terminal";
  readonly id: string;
  constructor(kind: "message" | "tool_call" | "terminal", id: string) {
    super(
      `${kind === "message" ? "messageId" : kind === "tool_call" ? "toolCallId" : "terminalId"} ${JSON.stringify(id)} is already used in this session; a new ${kind.replace("_", " ")} needs a new id (nothing was sent)`,
    );
    this.kind = kind;
    this.id = id;
  }
}

/** How much of a client's error a `ClientRequestError` keeps: the message's characters, the data's JSON length. */
const MAX_CLIENT_MESSAGE = 1024;
const MAX_CLIENT_DATA = 4096;

/**
 * The client answered a request of the agent (`session/request_permission`,
 * `elicitation/create`) with a JSON-RPC error. It is the client's answer to that request, not
 * an error of the agent's own method: a turn that lets it escape ends with `stopReason: "error"`
 * and an error that names the request, the client's error in its `data`
 * (`{ method, error: { code, message, data? } }`, the message clipped to 1024 characters, data
 * over 4 KiB of JSON left out), so a client never reads the agent's
 * `session/prompt` as "Method not found".
 */
export class ClientRequestError extends BrandedError {
  override readonly name = "ClientRequestError";
  override readonly [ERROR_BRAND] = "ClientRequestError";
  static override readonly brand = "ClientRequestError";
  readonly method: string;
  readonly error: ErrorObject;
  constructor(method: string, error: ErrorObject) {
    // The client wrote it: its message is clipped and large data left out, as the turn's error
    // is sent and stored again.
    const message = clipText(error.message, MAX_CLIENT_MESSAGE);
    super(`The client answered ${method} with error ${error.code}: ${message}`);
    this.method = method;
    const kept: ErrorObject = { code: error.code, message };
    if (error.data !== undefined && (JSON.stringify(error.data)?.length ?? 0) <= MAX_CLIENT_DATA)
      kept.data = error.data;
    this.error = kept;
  }
}
