// Test helper: a connection under test on one end of an in-memory pair, and a raw peer on the
// other that sends exact payloads and records exact payloads.
import { Connection, type ConnectionOptions } from "../connection.js";
import { createInMemoryTransportPair, type InMemoryTransport } from "../in-memory-transport.js";
import type { Logger } from "../logger.js";

export interface RawPeer {
  connection: Connection;
  /** The transport the raw peer speaks through. */
  transport: InMemoryTransport;
  /** Every payload the connection sent, parsed. */
  received: unknown[];
  send(payload: string | object): void;
  /** Resolves once `count` payloads have arrived in total. */
  waitFor(count: number): Promise<unknown[]>;
  /** Resolves once the pair is quiet (see `InMemoryTransport.settled`). */
  settle(): Promise<void>;
  peerClosed: Promise<Error | undefined>;
  logs: { level: string; message: string; data?: unknown }[];
}

export function recordingLogger(logs: RawPeer["logs"]): Logger {
  return {
    debug: (message, data) => logs.push({ level: "debug", message, data }),
    info: (message, data) => logs.push({ level: "info", message, data }),
    warn: (message, data) => logs.push({ level: "warn", message, data }),
    error: (message, data) => logs.push({ level: "error", message, data }),
  };
}

export function createRawPeer(options: ConnectionOptions = {}, setup?: (connection: Connection) => void): RawPeer {
  const [ours, theirs] = createInMemoryTransportPair();
  const logs: RawPeer["logs"] = [];
  const connection = new Connection(ours, { logger: recordingLogger(logs), ...options });
  setup?.(connection);
  const received: unknown[] = [];
  let waiters: { count: number; resolve: () => void }[] = [];
  let resolvePeerClosed!: (error: Error | undefined) => void;
  const peerClosed = new Promise<Error | undefined>((resolve) => (resolvePeerClosed = resolve));
  theirs.start({
    message(payload) {
      received.push(JSON.parse(payload));
      waiters = waiters.filter((w) => {
        if (received.length >= w.count) w.resolve();
        return received.length < w.count;
      });
    },
    closed: (error) => resolvePeerClosed(error),
  });
  connection.listen();
  return {
    connection,
    transport: theirs,
    received,
    logs,
    peerClosed,
    send(payload) {
      void theirs.send(typeof payload === "string" ? payload : JSON.stringify(payload));
    },
    waitFor(count) {
      if (received.length >= count) return Promise.resolve(received);
      return new Promise((resolve) => waiters.push({ count, resolve: () => resolve(received) }));
    },
    settle: () => theirs.settled(),
  };
}

/** Two connections wired to each other. */
export function createConnectionPair(options: ConnectionOptions = {}): { a: Connection; b: Connection } {
  const [ta, tb] = createInMemoryTransportPair();
  return { a: new Connection(ta, options), b: new Connection(tb, options) };
}
