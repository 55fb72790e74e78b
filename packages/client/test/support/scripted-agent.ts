/**
 * A hand-driven agent for client tests: a real `Connection` on the far end of an in-memory
 * pair. Tests answer requests with handlers, push updates with `update()`, and read what the
 * client sent from `received` (every request and notification, in order).
 */
import {
  Connection,
  createInMemoryTransportPair,
  type InMemoryTransport,
  type RequestContext,
  RequestError,
} from "@acp-kit/protocol/jsonrpc";

export interface Received {
  method: string;
  params: unknown;
}

export type AgentHandler = (params: any, ctx: RequestContext) => unknown;

export interface ScriptedAgentOptions {
  initialize?: Record<string, unknown>;
  handlers?: Record<string, AgentHandler>;
}

export class ScriptedAgent {
  readonly clientTransport: InMemoryTransport;
  readonly agentTransport: InMemoryTransport;
  readonly connection: Connection;
  readonly received: Received[] = [];
  /** Request IDs the agent sent, by method (to target `$/cancel_request`). */
  readonly sentRequestIds = new Map<string, (string | number)[]>();
  handlers: Record<string, AgentHandler>;
  #waiters: { method: string; index: number; resolve: (r: Received) => void }[] = [];
  readonly #consumed = new Map<string, number>();

  constructor(options: ScriptedAgentOptions = {}) {
    const [clientTransport, agentTransport] = createInMemoryTransportPair();
    this.clientTransport = clientTransport;
    // Record the IDs of the agent's own requests.
    const send = agentTransport.send.bind(agentTransport);
    agentTransport.send = (payload: string) => {
      const message = JSON.parse(payload) as { id?: string | number; method?: string };
      if (message.method !== undefined && message.id !== undefined) {
        const ids = this.sentRequestIds.get(message.method) ?? [];
        ids.push(message.id);
        this.sentRequestIds.set(message.method, ids);
      }
      return send(payload);
    };
    this.agentTransport = agentTransport;
    this.connection = new Connection(agentTransport);
    const init = {
      protocolVersion: 2,
      info: { name: "scripted-agent", version: "1.0.0" },
      capabilities: { session: {} },
      ...options.initialize,
    };
    this.handlers = { initialize: () => init, ...options.handlers };
    this.connection.onUnhandledRequest((params, ctx) => {
      this.#record(ctx.method, params);
      const handler = this.handlers[ctx.method];
      if (!handler) throw RequestError.methodNotFound(ctx.method);
      return handler(params, ctx);
    });
    this.connection.onUnhandledNotification((params, ctx) => {
      this.#record(ctx.method, params);
    });
    this.connection.listen();
  }

  #record(method: string, params: unknown): void {
    this.received.push({ method, params });
    this.#waiters = this.#waiters.filter((w) => !this.#tryResolve(w));
  }

  #occurrences(method: string): Received[] {
    return this.received.filter((r) => r.method === method);
  }

  #tryResolve(w: { method: string; index: number; resolve: (r: Received) => void }): boolean {
    const hit = this.#occurrences(w.method)[w.index];
    if (hit === undefined) return false;
    w.resolve(hit);
    return true;
  }

  /** Methods the client sent, in order (initialize included). */
  methods(): string[] {
    return this.received.map((r) => r.method);
  }

  /** The next (not yet awaited) occurrence of `method` the client sends, or has sent. */
  next(method: string): Promise<Received> {
    const index = this.#consumed.get(method) ?? 0;
    this.#consumed.set(method, index + 1);
    return new Promise((resolve) => {
      const waiter = { method, index, resolve };
      if (!this.#tryResolve(waiter)) this.#waiters.push(waiter);
    });
  }

  /**
   * Resolves once nothing is in flight between client and agent and every promise chain of
   * either side ran dry (the pair's `settled()`); what was exchanged then is all there is, short
   * of a timer or a deferred the test still holds.
   */
  settled(): Promise<void> {
    return this.agentTransport.settled();
  }

  update(sessionId: string, update: Record<string, unknown>): Promise<void> {
    return this.connection.notify("session/update", { sessionId, update });
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}

/** A promise with its resolvers exposed. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
