import { connectToAgent } from "@acp-kit/client";
import { afterEach } from "vitest";
import { allowOnce } from "../../client/test/support/allow-once.js";
import { kitAgent } from "../../client/test/support/kit-agent.js";
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
