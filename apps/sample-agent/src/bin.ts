#!/usr/bin/env node
/** `acp-sample-agent`: serves the scripted agent over stdio (default) or WebSocket (`--ws`). */
import { stdioTransport } from "@acp-kit/transport-stdio";
import { AGENT_USAGE, type AgentCliOptions, parseAgentArgs } from "./cli-args.js";
import { createSampleAgent } from "./sample-agent.js";
import { openSessionStore } from "./session-store-option.js";
import { stderrLogger } from "./stderr-logger.js";

const NAME = "acp-sample-agent";

async function main(): Promise<void> {
  let options: AgentCliOptions;
  try {
    options = parseAgentArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${NAME}: ${(error as Error).message}\n\n${AGENT_USAGE}`);
    process.exit(2);
  }
  if (options.help) {
    process.stderr.write(AGENT_USAGE);
    return;
  }
  const logger = stderrLogger(NAME, options.verbose);
  const sessionStore = await openSessionStore(options, logger);
  const agent = createSampleAgent({
    paceMs: options.paceMs,
    mode: options.mode,
    model: options.model,
    logger,
    sessionStore,
  });

  if (options.ws === undefined) {
    // stdio: one connection. When stdin ends the transport closes; exit once it did.
    const connection = agent.serve(stdioTransport({ logger }));
    const error = await connection.closed;
    if (error) logger.warn?.("connection ended with an error", error);
    process.exit(0);
  }

  // Loaded only for --ws, so stdio agents start faster.
  const { bearerToken, createAcpWebSocketServer } = await import("@acp-kit/transport-ws/node");
  const server = await createAcpWebSocketServer({
    host: options.ws.host,
    port: options.ws.port,
    logger,
    ...(options.token !== undefined ? { authenticate: bearerToken(options.token) } : {}),
    onConnection: (transport, info) => {
      logger.info?.(`connection ${info.connectionId} from ${info.remoteAddress ?? "?"}`);
      agent.serve(transport);
    },
  });
  // Tests and scripts parse this line to find the port (e.g. with --ws 127.0.0.1:0).
  process.stderr.write(`[${NAME}] listening on ${server.url} port=${server.port}\n`);

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info?.(`${signal}: closing`);
    void server.close({ timeoutMs: 2000 }).finally(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${NAME}: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
