import { type BackoffOptions, backoffDelay } from "./backoff.js";
import { ConnectionError, ConnectionErrorKinds } from "./errors.js";
import type { Logger } from "./logger.js";
import { ObservedTransport } from "./observed-transport.js";
import type { Transport } from "./transport.js";

export interface ConnectedInfo {
  /** 1-based attempt number within the current outage (or the first connect). */
  attempt: number;
  /** False for the first connection, true after a drop. */
  reconnect: boolean;
  /** Aborted when the reconnecting connection is closed. */
  signal: AbortSignal;
}

export interface DisconnectedInfo {
  /** The error the transport ended with (a `ConnectionError`). */
  error: Error;
}

export interface ReconnectingConnectionOptions<T> {
  /** Opens a fresh transport, e.g. `() => connectWebSocket(url, { cookies: jar })`. */
  connect(attempt: number, signal: AbortSignal): Promise<Transport>;
  /**
   * Builds the caller's connection on the transport and brings it up: create a `Connection`
   * (which starts the transport), send the protocol's handshake, and after a reconnect resume what was open.
   * Whatever it returns becomes `current`. A throw counts as a failed attempt.
   */
  onConnected(transport: Transport, info: ConnectedInfo): T | Promise<T>;
  /** Called when an established connection drops, before reconnecting. */
  onDisconnected?(info: DisconnectedInfo): void;
  backoff?: BackoffOptions;
  /** Attempts per outage before giving up. Default unlimited (the budget applies). */
  maxAttempts?: number;
  /** Time per outage (from the drop, or from the first attempt) before giving up. Default 60 s. */
  budgetMs?: number;
  /**
   * Whether an attempt's failure is worth retrying. Default: `ConnectionError`s are, except a
   * refused upgrade with a 4xx status other than 408/429 (bad credentials do not heal); any
   * other error (e.g. `onConnected` got a JSON-RPC error) is not.
   */
  shouldRetry?(error: unknown): boolean;
  /** Closes the reconnecting connection when aborted. */
  signal?: AbortSignal;
  logger?: Logger;
}

export type ReconnectingState = "connecting" | "connected" | "reconnecting" | "closed";

export interface ReconnectingConnection<T> {
  readonly state: ReconnectingState;
  /** What `onConnected` returned for the live transport; undefined while (re)connecting or closed. */
  readonly current: T | undefined;
  /** Resolves with `current` once connected (at once if it is); rejects once given up or closed. */
  ready(): Promise<T>;
  /** Settles once it stops for good: `undefined` after `close()`, the reason after giving up. */
  readonly closed: Promise<Error | undefined>;
  /** Stops reconnecting and closes the live transport. */
  close(): Promise<void>;
}

/** The default retry policy (see `ReconnectingConnectionOptions.shouldRetry`). */
export function isRetryableConnectError(error: unknown): boolean {
  if (!(error instanceof ConnectionError)) return false;
  const status = error.details.httpStatus;
  if (typeof status === "number" && status >= 400 && status < 500) return status === 408 || status === 429;
  return true;
}

/**
 * Keeps a connection up across drops. Transport-level and generic: it opens transports with
 * `connect`, lets `onConnected` build and bring up the caller's connection on each, and on an
 * unexpected end retries with exponential backoff and jitter until a budget runs out.
 *
 * It never resends anything: when a transport drops, its sink is told with a `ConnectionError`,
 * so the caller's connection fails the requests that were in flight (they may or may not have
 * been processed; the caller decides). Messages lost while disconnected are not replayed by the
 * transport; resuming with replay in `onConnected` (e.g. ACP's session resume) recovers state.
 */
export function createReconnectingConnection<T>(options: ReconnectingConnectionOptions<T>): ReconnectingConnection<T> {
  return new Reconnector(options);
}

class Reconnector<T> implements ReconnectingConnection<T> {
  state: ReconnectingState = "connecting";
  /** What `onConnected` returned, boxed (it may itself be `undefined`); set exactly while connected. */
  #connected: { value: T } | undefined;
  readonly closed: Promise<Error | undefined>;
  private resolveClosed!: (error: Error | undefined) => void;
  private readonly abort = new AbortController();
  private live: ObservedTransport | undefined;
  private finalError: Error | undefined;
  private waiters: { resolve: (value: T) => void; reject: (error: Error) => void }[] = [];
  private closing: Promise<void> | undefined;

  constructor(private readonly options: ReconnectingConnectionOptions<T>) {
    this.closed = new Promise((resolve) => {
      this.resolveClosed = resolve;
    });
    if (options.signal?.aborted) {
      void this.close();
      return;
    }
    options.signal?.addEventListener("abort", () => void this.close(), { once: true });
    void this.run();
  }

  get current(): T | undefined {
    return this.#connected?.value;
  }

  ready(): Promise<T> {
    const connected = this.#connected;
    if (connected !== undefined) return Promise.resolve(connected.value);
    if (this.state === "closed")
      return Promise.reject(this.finalError ?? ConnectionError.closed("The reconnecting connection is closed"));
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      const live = this.live;
      this.finish(undefined);
      if (live) await live.close().catch(() => {});
    })();
    return this.closing;
  }

  private get stopped(): boolean {
    return this.state === "closed";
  }

  private async run(): Promise<void> {
    let hasConnected = false;
    for (;;) {
      const outageStart = Date.now();
      let attempt = 0;
      let lastError: unknown;
      let live: ObservedTransport | undefined;
      while (live === undefined) {
        if (this.stopped) return;
        attempt++;
        if (hasConnected || attempt > 1) {
          const delay = backoffDelay(hasConnected ? attempt : attempt - 1, this.options.backoff);
          const budgetMs = this.options.budgetMs ?? 60_000;
          if (
            attempt > (this.options.maxAttempts ?? Number.POSITIVE_INFINITY) ||
            Date.now() - outageStart + delay > budgetMs
          ) {
            this.giveUp(attempt - 1, Date.now() - outageStart, lastError);
            return;
          }
          if (!(await this.sleep(delay))) return;
        }
        let observed: ObservedTransport | undefined;
        try {
          const transport = await this.options.connect(attempt, this.abort.signal);
          observed = new ObservedTransport(transport);
          if (this.stopped) {
            await transport.close().catch(() => {});
            return;
          }
          this.live = observed;
          const value = await this.options.onConnected(observed, {
            attempt,
            reconnect: hasConnected,
            signal: this.abort.signal,
          });
          if (!observed.started)
            throw new Error("onConnected must start the transport (e.g. create a Connection on it and listen)");
          if (observed.dropped) throw observed.dropped;
          if (this.stopped) return;
          this.#connected = { value };
          this.state = "connected";
          live = observed;
          hasConnected = true;
          for (const waiter of this.waiters.splice(0)) waiter.resolve(value);
        } catch (error) {
          lastError = error;
          if (this.stopped) return;
          if (observed) {
            this.live = undefined;
            await observed.close().catch(() => {});
          }
          const retry = (this.options.shouldRetry ?? isRetryableConnectError)(error);
          this.options.logger?.warn?.(`Connection attempt ${attempt} failed${retry ? "; will retry" : ""}`, error);
          if (!retry) {
            this.finish(error instanceof Error ? error : new Error(String(error)));
            return;
          }
        }
      }
      const end = await live.ended;
      if (this.stopped || end.requested) return;
      this.live = undefined;
      this.#connected = undefined;
      this.state = "reconnecting";
      const error = end.error ?? ConnectionError.closed("The connection was closed by the peer");
      this.options.logger?.info?.("Connection dropped; reconnecting", error);
      try {
        this.options.onDisconnected?.({ error });
      } catch (callbackError) {
        this.options.logger?.error?.("onDisconnected threw", callbackError);
      }
    }
  }

  private giveUp(attempts: number, elapsedMs: number, lastError: unknown): void {
    const reason = lastError instanceof Error ? `: ${lastError.message}` : "";
    this.finish(
      new ConnectionError(
        ConnectionErrorKinds.ConnectFailed,
        `Gave up reconnecting after ${attempts} attempt(s) in ${elapsedMs} ms${reason}`,
        {
          cause: lastError,
          details: { attempts, elapsedMs },
        },
      ),
    );
  }

  private finish(error: Error | undefined): void {
    if (this.state === "closed") return;
    this.state = "closed";
    this.#connected = undefined;
    this.live = undefined;
    this.finalError = error;
    this.abort.abort(error ?? ConnectionError.closed("The reconnecting connection was closed"));
    const reason = error ?? ConnectionError.closed("The reconnecting connection was closed");
    for (const waiter of this.waiters.splice(0)) waiter.reject(reason);
    this.resolveClosed(error);
  }

  /** Resolves true after `ms`, or false as soon as the connection is closed. */
  private sleep(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const signal = this.abort.signal;
      if (signal.aborted) return resolve(false);
      const timer = setTimeout(() => {
        signal.removeEventListener("abort", onAbort);
        resolve(true);
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        resolve(false);
      };
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }
}
