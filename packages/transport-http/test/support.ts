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

/** A fetch handler serving `testAgent`, closed after the test. */
export function testHandler(options: Partial<AcpHttpHandlerOptions> = {}) {
  const handler = createAcpHttpHandler({ onConnection: (transport) => void testAgent.serve(transport), ...options });
  onCleanup(() => handler.close());
  return handler;
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
