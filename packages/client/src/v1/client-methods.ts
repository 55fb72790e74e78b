/**
 * The `fs/*` and `terminal/*` requests of a v1 agent, answered on the client's side by the
 * registered `V1ClientHandlers`: at most {@link MAX_HANDLED_REQUESTS} at once (beyond it the
 * agent's messages wait to be read, as the connection's own inbound gate does), each with a
 * signal the agent's `$/cancel_request` or the connection's end aborts.
 */
import { ErrorCodes } from "@acp-kit/protocol";
import { type Logger, RequestError } from "@acp-kit/protocol/jsonrpc";
import { decodeErrorText, type WireId } from "@acp-kit/protocol/v1";
import type { V1ClientMethod } from "./handlers.js";

/** fs/terminal requests answered at once; beyond it the agent's messages wait to be read. */
const MAX_HANDLED_REQUESTS = 64;

/** A JSON-RPC error object for a thrown value: a `RequestError` as it is, anything else -32603. */
export function errorOf(error: unknown): { code: number; message: string; data?: unknown } {
  if (error instanceof RequestError)
    return error.data === undefined
      ? { code: error.code, message: error.message }
      : { code: error.code, message: error.message, data: error.data };
  return { code: ErrorCodes.InternalError, message: "Internal error" };
}

export type Reply = (id: WireId, answer: { result: unknown } | { error: ReturnType<typeof errorOf> }) => void;

export class V1ClientMethods {
  readonly #reply: Reply;
  readonly #logger: Logger;
  /** Requests being answered, by the agent's request id. */
  readonly #handling = new Map<WireId, AbortController>();
  /** Reads waiting for a free handler slot. */
  #slotWaiters: (() => void)[] = [];

  constructor(reply: Reply, logger: Logger) {
    this.#reply = reply;
    this.#logger = logger;
  }

  /**
   * Answers one request (-32601 when no handler is registered, -32602 for bad params);
   * `started` learns the session once the params decoded. The promise (at the limit) holds
   * reading until a slot is free.
   */
  handle(
    id: WireId,
    method: string,
    params: unknown,
    handling: V1ClientMethod,
    started: (sessionId: string) => void,
  ): void | Promise<void> {
    const reply = (answer: { result: unknown } | { error: ReturnType<typeof errorOf> }): void => {
      if (this.#handling.delete(id)) this.#slotWaiters.shift()?.();
      this.#reply(id, answer);
    };
    if (handling === null) return reply({ error: errorOf(RequestError.methodNotFound(method)) });
    const call = handling(params);
    if (!call.ok) {
      const message = `Invalid params for ${method}: ${decodeErrorText(call.error)}`;
      return reply({ error: errorOf(RequestError.invalidParams(message)) });
    }
    started(call.sessionId);
    const controller = new AbortController();
    this.#handling.set(id, controller);
    Promise.resolve()
      .then(() => call.run({ signal: controller.signal }))
      .then(
        (result) => reply({ result: result ?? {} }),
        (error: unknown) => {
          if (!(error instanceof RequestError)) this.#logger.error?.(`Handler for ${method} failed`, error);
          reply({ error: errorOf(error) });
        },
      );
    // At the limit, reading pauses until one of the requests was answered.
    if (this.#handling.size < MAX_HANDLED_REQUESTS) return;
    return new Promise<void>((resolve) => this.#slotWaiters.push(resolve));
  }

  /** The agent's `$/cancel_request` for a request answered here; false when it is not one. */
  cancel(id: WireId): boolean {
    const controller = this.#handling.get(id);
    if (controller === undefined) return false;
    controller.abort();
    return true;
  }

  /** The connection ended: every handler's signal aborts and held reads go on. */
  closed(): void {
    for (const controller of this.#handling.values()) controller.abort();
    this.#handling.clear();
    for (const resume of this.#slotWaiters.splice(0)) resume();
  }
}
