/**
 * The context a typed request handler gets: the JSON-RPC context, seen through the typed
 * connection. Reads go through to the JSON-RPC context rather than being copied, so that its
 * signal is still only created when a handler reads it (see jsonrpc/incoming-request.ts).
 */
import type { RequestContext } from "../jsonrpc/connection.js";
import type { JsonRpcId } from "../jsonrpc/messages.js";
import type { AcpConnection } from "./acp-connection.js";
import type { AcpRequestContext } from "./acp-connection-types.js";
import type { AcpSide } from "./sides.js";

export class TypedRequestContext<S extends AcpSide> implements AcpRequestContext<S> {
  readonly connection: AcpConnection<S>;
  readonly #raw: RequestContext;

  constructor(raw: RequestContext, connection: AcpConnection<S>) {
    this.#raw = raw;
    this.connection = connection;
  }

  get id(): JsonRpcId {
    return this.#raw.id;
  }

  get method(): string {
    return this.#raw.method;
  }

  get signal(): AbortSignal {
    return this.#raw.signal;
  }
}
