/**
 * The request and notification handlers of a connection: one per method, plus one fallback each,
 * and behind its own a shared table's (handler-table.ts).
 */

import { CANCEL_REQUEST_METHOD } from "./cancellation.js";
import type { NotificationContext, NotificationHandler, RequestContext, RequestHandler } from "./connection-types.js";
import { type Disposable, disposable } from "./disposable.js";
import type { ConnectionError } from "./errors.js";
import { type HandlerTable, registerOnce, type SharedHandlers } from "./handler-table.js";

/**
 * Handlers as stored. The registrant vouches for the params type it declared (the connection
 * cannot check it); writing the call as a method signature keeps its parameters bivariant, so any
 * `RequestHandler<P, R>` is stored as it is.
 */
interface StoredRequestHandler {
  call(params: unknown, context: RequestContext): unknown;
}
interface StoredNotificationHandler {
  call(params: unknown, context: NotificationContext): void | PromiseLike<void>;
}

export class HandlerRegistry {
  /** Made on first registration: a connection served from a shared table registers none. */
  #requests: Map<string, StoredRequestHandler["call"]> | undefined;
  #notifications: Map<string, StoredNotificationHandler["call"]> | undefined;
  #fallbackRequest: RequestHandler | undefined;
  #fallbackNotification: NotificationHandler | undefined;
  readonly #table: HandlerTable<unknown> | undefined;
  readonly #target: unknown;

  constructor(shared?: SharedHandlers) {
    this.#table = shared?.table;
    this.#target = shared?.target;
  }

  /** The connection ended: the shared table's close handler runs (see `HandlerTable.onClose`). */
  closed(reason: ConnectionError): void {
    this.#table?.close?.(this.#target, reason);
  }

  /** Whether a request for `method` has a handler: its own, the table's, or the fallback. */
  handlesRequest(method: string): boolean {
    return (
      this.#requests?.has(method) === true ||
      this.#table?.request(method) !== undefined ||
      this.#fallbackRequest !== undefined
    );
  }

  /** Runs the handler of a request for `method` (one `handlesRequest` found). */
  runRequest(method: string, params: unknown, context: RequestContext): unknown {
    const own = this.#requests?.get(method);
    if (own !== undefined) return own(params, context);
    const shared = this.#table?.request(method);
    if (shared !== undefined) return shared(this.#target, params, context);
    return (this.#fallbackRequest as RequestHandler)(params, context);
  }

  /** Whether a notification for `method` has a handler: its own, the table's, or the fallback. */
  handlesNotification(method: string): boolean {
    return (
      this.#notifications?.has(method) === true ||
      this.#table?.notification(method) !== undefined ||
      this.#fallbackNotification !== undefined
    );
  }

  /** Runs the handler of a notification for `method` (one `handlesNotification` found). */
  runNotification(method: string, params: unknown, context: NotificationContext): void | PromiseLike<void> {
    const own = this.#notifications?.get(method);
    if (own !== undefined) return own(params, context);
    const shared = this.#table?.notification(method);
    if (shared !== undefined) return shared(this.#target, params, context);
    return (this.#fallbackNotification as NotificationHandler)(params, context);
  }

  onRequest<Params, Result>(method: string, handler: RequestHandler<Params, Result>): Disposable {
    if (this.#table?.request(method) !== undefined)
      throw new Error(`A request handler for ${method} is already registered`);
    const stored: StoredRequestHandler = { call: handler };
    this.#requests ??= new Map();
    return registerOnce(this.#requests, method, stored.call, "request");
  }

  onNotification<Params>(method: string, handler: NotificationHandler<Params>): Disposable {
    if (method === CANCEL_REQUEST_METHOD) {
      throw new Error(`${CANCEL_REQUEST_METHOD} is handled by the connection itself (see RequestContext.signal)`);
    }
    if (this.#table?.notification(method) !== undefined)
      throw new Error(`A notification handler for ${method} is already registered`);
    const stored: StoredNotificationHandler = { call: handler };
    this.#notifications ??= new Map();
    return registerOnce(this.#notifications, method, stored.call, "notification");
  }

  onUnhandledRequest(handler: RequestHandler): Disposable {
    if (this.#fallbackRequest !== undefined) throw new Error("A fallback request handler is already registered");
    this.#fallbackRequest = handler;
    return disposable(() => {
      if (this.#fallbackRequest === handler) this.#fallbackRequest = undefined;
    });
  }

  onUnhandledNotification(handler: NotificationHandler): Disposable {
    if (this.#fallbackNotification !== undefined)
      throw new Error("A fallback notification handler is already registered");
    this.#fallbackNotification = handler;
    return disposable(() => {
      if (this.#fallbackNotification === handler) this.#fallbackNotification = undefined;
    });
  }
}
