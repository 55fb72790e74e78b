/** The request and notification handlers of a connection: one per method, plus one fallback each. */
import { CANCEL_REQUEST_METHOD } from "./cancellation.js";
import type { NotificationContext, NotificationHandler, RequestContext, RequestHandler } from "./connection-types.js";
import { type Disposable, disposable } from "./disposable.js";

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
  readonly #requests = new Map<string, StoredRequestHandler["call"]>();
  readonly #notifications = new Map<string, StoredNotificationHandler["call"]>();
  #fallbackRequest: RequestHandler | undefined;
  #fallbackNotification: NotificationHandler | undefined;

  /** The handler of a request for `method`: its own, else the fallback. */
  request(method: string): StoredRequestHandler["call"] | undefined {
    return this.#requests.get(method) ?? this.#fallbackRequest;
  }

  /** The handler of a notification for `method`: its own, else the fallback. */
  notification(method: string): StoredNotificationHandler["call"] | undefined {
    return this.#notifications.get(method) ?? this.#fallbackNotification;
  }

  onRequest<Params, Result>(method: string, handler: RequestHandler<Params, Result>): Disposable {
    const stored: StoredRequestHandler = { call: handler };
    return register(this.#requests, method, stored.call, "request");
  }

  onNotification<Params>(method: string, handler: NotificationHandler<Params>): Disposable {
    if (method === CANCEL_REQUEST_METHOD) {
      throw new Error(`${CANCEL_REQUEST_METHOD} is handled by the connection itself (see RequestContext.signal)`);
    }
    const stored: StoredNotificationHandler = { call: handler };
    return register(this.#notifications, method, stored.call, "notification");
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

function register<H>(table: Map<string, H>, method: string, handler: H, kind: string): Disposable {
  if (table.has(method)) throw new Error(`A ${kind} handler for ${method} is already registered`);
  table.set(method, handler);
  return disposable(() => {
    if (table.get(method) === handler) table.delete(method);
  });
}
