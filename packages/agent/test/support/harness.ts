/**
 * Test harness: an agent served over the in-memory transport pair, and a scripted client made of
 * our raw JSON-RPC `Connection`. Every message the agent sends is recorded in wire order
 * (`client.wire`), so tests can assert on ordering between responses and notifications.
 */
import { Connection, createInMemoryTransportPair, type Transport, type TransportSink } from "@acp-kit/protocol/jsonrpc";
import { type Agent, type AgentConnectionHandle, type AgentDefinition, defineAgent } from "../../src/index.js";

export type WireMessage = {
  jsonrpc: "2.0";
  id?: string | number | null;
  method?: string;
  params?: any;
  result?: any;
  error?: { code: number; message: string; data?: any };
};

/** Wraps a transport so every inbound payload is recorded before it is delivered. */
function recording(transport: Transport, wire: WireMessage[], onMessage: () => void): Transport {
  return {
    start(sink: TransportSink) {
      transport.start({
        message(payload) {
          wire.push(JSON.parse(payload) as WireMessage);
          const result = sink.message(payload);
          onMessage();
          return result;
        },
        closed(error) {
          sink.closed(error);
        },
      });
    },
    send: (payload) => transport.send(payload),
    close: () => transport.close(),
  };
}

export interface ClientOptions {
  /** Answers `session/request_permission`; default: never answers (stays pending). */
  onPermission?: (params: any, signal: AbortSignal) => unknown;
  onElicitation?: (params: any, signal: AbortSignal) => unknown;
}

export class ScriptedClient {
  readonly wire: WireMessage[] = [];
  readonly conn: Connection;
  #waiters: { predicate: () => boolean; resolve: () => void }[] = [];
  options: ClientOptions;

  constructor(transport: Transport, options: ClientOptions = {}) {
    this.options = options;
    this.conn = new Connection(recording(transport, this.wire, () => this.#check()));
    const pending = () => new Promise<never>(() => {});
    this.conn.onRequest("session/request_permission", (params, ctx) =>
      (this.options.onPermission ?? pending)(params, ctx.signal),
    );
    this.conn.onRequest("elicitation/create", (params, ctx) =>
      (this.options.onElicitation ?? pending)(params, ctx.signal),
    );
    this.conn.onNotification("session/update", () => {});
    this.conn.onNotification("elicitation/complete", () => {});
    this.conn.listen();
  }

  #check(): void {
    this.#waiters = this.#waiters.filter((w) => {
      if (!w.predicate()) return true;
      w.resolve();
      return false;
    });
  }

  /** Resolves once `predicate` holds over what was received (checked after every message). */
  waitUntil(predicate: () => boolean, timeoutMs = 5000): Promise<void> {
    if (predicate()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`waitUntil timed out; wire:\n${JSON.stringify(this.wire, null, 1).slice(-3000)}`)),
        timeoutMs,
      );
      this.#waiters.push({
        predicate,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  request(method: string, params?: unknown, signal?: AbortSignal): Promise<any> {
    return this.conn.request(method, params, signal === undefined ? {} : { signal });
  }

  notify(method: string, params?: unknown): Promise<void> {
    return this.conn.notify(method, params);
  }

  async initialize(capabilities: Record<string, unknown> = {}): Promise<any> {
    return this.request("initialize", {
      protocolVersion: 2,
      info: { name: "scripted-client", version: "0.0.0" },
      capabilities,
    });
  }

  async newSession(cwd = "/work/project", extra: Record<string, unknown> = {}): Promise<string> {
    const result = await this.request("session/new", { cwd, ...extra });
    return result.sessionId as string;
  }

  prompt(sessionId: string, text: string | unknown[]): Promise<any> {
    const prompt = typeof text === "string" ? [{ type: "text", text }] : text;
    return this.request("session/prompt", { sessionId, prompt });
  }

  cancel(sessionId: string): Promise<void> {
    return this.notify("session/cancel", { sessionId });
  }

  /** Every `session/update` for the session, in wire order. */
  updates(sessionId?: string): any[] {
    return this.wire
      .filter((m) => m.method === "session/update" && (sessionId === undefined || m.params.sessionId === sessionId))
      .map((m) => m.params.update);
  }

  states(sessionId?: string): any[] {
    return this.updates(sessionId).filter((u) => u.sessionUpdate === "state_update");
  }

  idles(sessionId?: string): any[] {
    return this.states(sessionId).filter((u) => u.state === "idle");
  }

  waitForIdles(count: number, sessionId?: string): Promise<void> {
    return this.waitUntil(() => this.idles(sessionId).length >= count);
  }

  /** Index in the wire log of the response to our request with `id`. */
  responseIndex(id: number): number {
    return this.wire.findIndex((m) => m.id === id && m.method === undefined);
  }

  close(): Promise<void> {
    return this.conn.close();
  }
}

export interface Started {
  client: ScriptedClient;
  agent: AgentConnectionHandle;
  /**
   * Resolves once nothing is in flight between client and agent and every handler's promise
   * chain ran dry (the in-memory pair's `settled()`): what the wire holds then is all there is,
   * short of a timer or of a gate the test still holds.
   */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

const INFO = { name: "test-agent", version: "1.0.0" };

/** Serves `definition` on an in-memory pair; returns the scripted client and the agent handle. */
export function start(
  definition: Partial<AgentDefinition> & Pick<AgentDefinition, "prompt">,
  options: ClientOptions = {},
): Started {
  return connect(
    defineAgent({ info: INFO, validateOutgoing: true, cancelGracePeriodMs: 2000, ...definition }),
    options,
  );
}

/** Serves an already defined agent on a fresh in-memory pair: one more client of the same agent. */
export function connect(defined: Agent, options: ClientOptions = {}): Started {
  const [agentSide, clientSide] = createInMemoryTransportPair();
  const agent = defined.serve(agentSide);
  const client = new ScriptedClient(clientSide, options);
  return {
    client,
    agent,
    settled: () => clientSide.settled(),
    async stop() {
      await client.close();
      await agent.close();
      await agent.closed;
    },
  };
}

/** Starts, initializes and opens one session. */
export async function startWithSession(
  definition: Partial<AgentDefinition> & Pick<AgentDefinition, "prompt">,
  options: ClientOptions & { clientCapabilities?: Record<string, unknown> } = {},
): Promise<Started & { sessionId: string }> {
  const started = start(definition, options);
  await started.client.initialize(options.clientCapabilities ?? {});
  const sessionId = await started.client.newSession();
  return { ...started, sessionId };
}

/** A promise plus its resolver, for scripting when a handler may go on. */
export function gate<T = void>(): { promise: Promise<T>; open(value: T): void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}
