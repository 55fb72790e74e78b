import { defineAgent } from "@acp-kit/agent";
import { connectToAgent } from "@acp-kit/client";
import { afterEach } from "vitest";
import { type AcpHttpServer, type AcpHttpServerOptions, createAcpHttpServer } from "../src/node/index.js";

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

export function onCleanup(cleanup: () => Promise<unknown> | unknown): void {
  cleanups.push(cleanup);
}

/** A turn with text, a tool call behind a permission request, and a turn that runs until cancelled. */
export const testAgent = defineAgent({
  info: { name: "http-test-agent", version: "0.0.0" },
  async prompt(turn) {
    if (turn.text.startsWith("edit")) {
      await turn.say("Editing.");
      const call = turn.toolCall({ title: "Edit main.ts", kind: "edit" });
      const decision = await call.requestPermission();
      if (!decision.granted) {
        await call.fail();
        return "end_turn";
      }
      await call.start();
      await call.complete();
      await turn.say("Done.");
      return "end_turn";
    }
    const count = /^count (\d+)/.exec(turn.text);
    if (count) {
      for (let i = 0; i < Number(count[1]); i++) await turn.say(`chunk ${i} `);
      return "end_turn";
    }
    const call = turn.toolCall({ title: "Watch", kind: "execute" });
    await call.start();
    await new Promise<void>((resolve) => turn.signal.addEventListener("abort", () => resolve(), { once: true }));
    return "cancelled";
  },
});

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

export const allowOnce = {
  requestPermission: (request: { options: { kind: string; optionId: string }[] }) => ({
    outcome: {
      outcome: "selected" as const,
      optionId: (request.options.find((o) => o.kind === "allow_once") ?? request.options[0])?.optionId ?? "",
    },
  }),
};

export async function connectClient(transport: Parameters<typeof connectToAgent>[0]) {
  const client = await connectToAgent(transport, {
    info: { name: "http-test-client", version: "0.0.0" },
    handlers: allowOnce,
  });
  onCleanup(() => client.close());
  return client;
}
