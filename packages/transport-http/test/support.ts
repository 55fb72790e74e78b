import { connectToAgent } from "@acp-kit/client";
import { afterEach } from "vitest";
import { allowOnce } from "../../client/test/support/allow-once.js";
import { kitAgent } from "../../client/test/support/kit-agent.js";
import { type AcpHttpHandlerOptions, createAcpHttpHandler } from "../src/index.js";
import { type AcpHttpServer, type AcpHttpServerOptions, createAcpHttpServer } from "../src/node/index.js";

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

export function onCleanup(cleanup: () => Promise<unknown> | unknown): void {
  cleanups.push(cleanup);
}

/** The agent the client tests drive (a permission, a terminal, a turn that runs until cancelled). */
export const testAgent = kitAgent;

/** The URL the fetch-handler tests address: the handler routes on method and headers only. */
export const HANDLER_URL = "http://127.0.0.1/acp";

/** A client's `initialize` request: the first POST of every connection. */
export const INITIALIZE_REQUEST = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: 2, capabilities: {}, info: { name: "t", version: "0" } },
};

/** The handler's two front ends: the fetch-style one, and the Node one behind `createAcpHttpServer`. */
export const FRONT_ENDS = ["fetch", "node"] as const;
export type FrontEnd = (typeof FRONT_ENDS)[number];
let frontEnd: FrontEnd = "fetch";

/** Which front end `testHandler` serves through (call it in a `beforeEach`). */
export function useFrontEnd(which: FrontEnd): void {
  frontEnd = which;
}

/** A handler serving `testAgent`, closed after the test: the fetch handler, or the Node server behind `fetch`. */
export function testHandler(options: Partial<AcpHttpHandlerOptions> = {}) {
  if (frontEnd === "node") return nodeTestHandler(options);
  const handler = createAcpHttpHandler({ onConnection: (transport) => void testAgent.serve(transport), ...options });
  onCleanup(() => handler.close());
  return handler;
}

/** `createAcpHttpServer` with the fetch handler's face: each request goes to it over `fetch`. */
function nodeTestHandler(options: Partial<AcpHttpHandlerOptions>) {
  if (options.onConnection) throw new TypeError("the Node front end serves testAgent only");
  const { onConnection: _, ...rest } = options;
  const started = startAgentServer({ ...rest, websocket: false });
  return {
    server: undefined as AcpHttpServer | undefined,
    get connections(): number {
      if (!this.server) throw new Error("not started");
      return this.server.handler.connections;
    },
    async handle(request: Request): Promise<Response> {
      this.server = await started;
      return fetch(this.server.url, {
        method: request.method,
        headers: request.headers,
        ...(request.body ? { body: request.body, duplex: "half" } : {}),
        signal: request.signal,
      } as RequestInit);
    },
  };
}

export async function startAgentServer(options: Partial<AcpHttpServerOptions> = {}): Promise<AcpHttpServer> {
  const server = await createAcpHttpServer({
    onConnection: (transport) => {
      testAgent.serve(transport);
    },
    ...options,
  });
  onCleanup(() => server.close());
  return server;
}

export async function connectClient(transport: Parameters<typeof connectToAgent>[0]) {
  const client = await connectToAgent(transport, {
    info: { name: "http-test-client", version: "0.0.0" },
    handlers: allowOnce,
  });
  onCleanup(() => client.close());
  return client;
}
