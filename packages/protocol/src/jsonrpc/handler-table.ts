/**
 * Request and notification handlers built once and shared by many connections. Each handler gets
 * the target its connection was given (see `shareHandlers`) besides the params and context, so a
 * server of thousands of connections keeps one table rather than a closure per method per
 * connection. A connection's own handlers (`onRequest`, `onNotification`) come before the table's.
 */
import { CANCEL_REQUEST_METHOD } from "./cancellation.js";
import type { NotificationContext, RequestContext } from "./connection-types.js";
import { type Disposable, disposable } from "./disposable.js";
import type { ConnectionError } from "./errors.js";

export type TableRequestHandler<Target> = (target: Target, params: unknown, context: RequestContext) => unknown;

export type TableNotificationHandler<Target> = (
  target: Target,
  params: unknown,
  context: NotificationContext,
) => void | PromiseLike<void>;

/** Told that a connection sharing the table ended, with what its pending work is rejected with. */
export type TableCloseHandler<Target> = (target: Target, reason: ConnectionError) => void;

export class HandlerTable<Target> {
  readonly #requests = new Map<string, TableRequestHandler<Target>>();
  readonly #notifications = new Map<string, TableNotificationHandler<Target>>();
  #close: TableCloseHandler<Target> | undefined;

  request(method: string): TableRequestHandler<Target> | undefined {
    return this.#requests.get(method);
  }

  notification(method: string): TableNotificationHandler<Target> | undefined {
    return this.#notifications.get(method);
  }

  /** The handler `onClose` registered. */
  get close(): TableCloseHandler<Target> | undefined {
    return this.#close;
  }

  /**
   * Runs `handler` as each sharing connection ends, synchronously, when its signal aborts: before
   * the rejections of its pending requests reach their callers. One per table; it must not throw.
   */
  onClose(handler: TableCloseHandler<Target>): Disposable {
    if (this.#close !== undefined) throw new Error("A close handler is already registered");
    this.#close = handler;
    return disposable(() => {
      if (this.#close === handler) this.#close = undefined;
    });
  }

  /** Handles requests for `method` on every connection sharing this table; dispose to unregister. */
  onRequest(method: string, handler: TableRequestHandler<Target>): Disposable {
    return registerOnce(this.#requests, method, handler, "request");
  }

  /** Handles notifications for `method` on every connection sharing this table; dispose to unregister. */
  onNotification(method: string, handler: TableNotificationHandler<Target>): Disposable {
    if (method === CANCEL_REQUEST_METHOD) {
      throw new Error(`${CANCEL_REQUEST_METHOD} is handled by the connection itself (see RequestContext.signal)`);
    }
    return registerOnce(this.#notifications, method, handler, "notification");
  }
}

/** A table with the target of one connection (`ConnectionOptions.sharedHandlers`). */
export interface SharedHandlers {
  readonly table: HandlerTable<unknown>;
  readonly target: unknown;
}

/** Pairs `table` with the target its handlers get on one connection. */
export function shareHandlers<Target>(table: HandlerTable<Target>, target: Target): SharedHandlers {
  return { table: table as HandlerTable<unknown>, target };
}

/** Registers `handler` for `method` in `table`, refusing a second one; dispose removes it. */
export function registerOnce<H>(table: Map<string, H>, method: string, handler: H, kind: string): Disposable {
  if (table.has(method)) throw new Error(`A ${kind} handler for ${method} is already registered`);
  table.set(method, handler);
  return disposable(() => {
    if (table.get(method) === handler) table.delete(method);
  });
}
