/**
 * A typed handler table built once and shared by the connections of one end (an agent serving
 * thousands of clients): each handler gets the owner its connection was given (`serving`) before
 * the decoded params and the context, so a connection keeps no closure or record per method.
 * What a connection does with a request is the same as for its own `onRequest` handlers.
 */
import type { Disposable } from "../jsonrpc/disposable.js";
import type { ConnectionError } from "../jsonrpc/errors.js";
import { HandlerTable, type SharedHandlers, shareHandlers } from "../jsonrpc/handler-table.js";
import { type AcpConnection, sharedDispatch } from "./acp-connection.js";
import type { AcpNotificationContext, AcpRequestContext, Params, Result } from "./acp-connection-types.js";
import {
  registeredExtNotification,
  registeredExtRequest,
  registeredNotification,
  registeredRequest,
} from "./handler-records.js";
import { agentSideTables, type SideTables } from "./side-tables.js";
import type { AcpSide, ExtensionMethod, HandledNotifications, HandledRequests } from "./sides.js";

export type AcpTableRequestHandler<S extends AcpSide, M extends keyof HandledRequests<S>, Owner> = (
  owner: Owner,
  params: Params<HandledRequests<S>, M>,
  context: AcpRequestContext<S>,
) => Result<HandledRequests<S>, M> | PromiseLike<Result<HandledRequests<S>, M>>;

export type AcpTableNotificationHandler<S extends AcpSide, M extends keyof HandledNotifications<S>, Owner> = (
  owner: Owner,
  params: Params<HandledNotifications<S>, M>,
  context: AcpNotificationContext<S>,
) => void | PromiseLike<void>;

/** A table with the owner of one connection: `createAgentSideConnection`'s third argument. */
export interface AcpSharedHandlers<S extends AcpSide> {
  readonly side: S;
  readonly entries: HandlerTable<AcpConnection<S>>;
  readonly owner: unknown;
}

/** What a connection of `connection`'s side is served from `shared` with; a table of the other side is refused. */
export function servedHandlers<S extends AcpSide>(
  shared: AcpSharedHandlers<S>,
  connection: AcpConnection<S>,
): SharedHandlers {
  if (shared.side !== connection.side)
    throw new TypeError(`A ${shared.side}-side handler table on a ${connection.side}-side connection`);
  return shareHandlers(shared.entries, connection);
}

type AnyConnection = Parameters<typeof sharedDispatch.request>[0];

export class AcpHandlerTable<S extends AcpSide, Owner> {
  readonly #tables: SideTables<S>;
  /** The JSON-RPC entries every sharing connection looks up, each calling into its connection. */
  readonly #entries = new HandlerTable<AcpConnection<S>>();

  constructor(tables: SideTables<S>) {
    this.#tables = tables;
  }

  /** Handles a request on every connection sharing this table (as `AcpConnection.onRequest`). */
  onRequest<M extends keyof HandledRequests<S> & string>(
    method: M,
    handler: AcpTableRequestHandler<S, M, Owner>,
  ): Disposable {
    const registered = registeredRequest(this.#tables, method, handler as never, true);
    return this.#entries.onRequest(method, (connection, params, context) =>
      sharedDispatch.request(connection as AnyConnection, registered, params, context),
    );
  }

  /** Handles a notification on every connection sharing this table (as `AcpConnection.onNotification`). */
  onNotification<M extends keyof HandledNotifications<S> & string>(
    method: M,
    handler: AcpTableNotificationHandler<S, M, Owner>,
  ): Disposable {
    const registered = registeredNotification(this.#tables, method, handler as never, true);
    return this.#entries.onNotification(method, (connection, params, context) =>
      sharedDispatch.notification(connection as AnyConnection, registered, params, context),
    );
  }

  /** Handles an extension request (`_`-prefixed) on every connection sharing this table. */
  onExtRequest(
    method: ExtensionMethod,
    handler: (owner: Owner, params: unknown, context: AcpRequestContext<S>) => unknown,
  ): Disposable {
    const registered = registeredExtRequest(method, handler as never, true);
    return this.#entries.onRequest(method, (connection, params, context) =>
      sharedDispatch.extRequest(connection as AnyConnection, registered, params, context),
    );
  }

  /** Handles an extension notification (`_`-prefixed) on every connection sharing this table. */
  onExtNotification(
    method: ExtensionMethod,
    handler: (owner: Owner, params: unknown, context: AcpNotificationContext<S>) => void | PromiseLike<void>,
  ): Disposable {
    const registered = registeredExtNotification(method, handler as never, true);
    return this.#entries.onNotification(method, (connection, params, context) =>
      sharedDispatch.notification(connection as AnyConnection, registered, params, context),
    );
  }

  /**
   * Runs `handler` with the owner as each sharing connection ends, synchronously (see
   * `HandlerTable.onClose`): before the rejections of its pending requests reach their callers.
   */
  onClose(handler: (owner: Owner, reason: ConnectionError) => void): Disposable {
    return this.#entries.onClose((connection, reason) =>
      handler(sharedDispatch.owner(connection as AnyConnection) as Owner, reason),
    );
  }

  /** This table with the owner its handlers get on one connection. */
  serving(owner: Owner): AcpSharedHandlers<S> {
    return { side: this.#tables.side, entries: this.#entries, owner };
  }
}

/**
 * A handler table for agent-side connections: register once, then serve each connection with
 * `createAgentSideConnection(transport, options, table.serving(owner))`.
 */
export function createAgentHandlerTable<Owner>(): AcpHandlerTable<"agent", Owner> {
  return new AcpHandlerTable(agentSideTables());
}
