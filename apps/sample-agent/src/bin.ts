#!/usr/bin/env node
/** `acp-sample-agent`: serves the scripted agent over stdio (default), WebSocket (`--ws`) or Streamable HTTP (`--http`). */
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

  if (options.ws === undefined && options.http === undefined) {
    // stdio: one connection. When stdin ends the transport closes; exit once it did.
    const connection = agent.serve(stdioTransport({ logger }));
    const error = await connection.closed;
    if (error) {
      // Not a clean end (an oversized line, a broken pipe): say so, and exit non-zero.
      process.stderr.write(`[${NAME}] connection ended with an error: ${error.message}\n`);
      process.exit(1);
    }
    process.exit(0);
  }

  const { host, port } = (options.ws ?? options.http) as { host: string; port: number };
  if (options.token === undefined && !isLoopback(host)) {
    process.stderr.write(
      `[${NAME}] warning: listening on ${host} without --token: anyone who can reach this port can drive the agent\n`,
    );
  }
  let server: { url: string; port: number; close(options?: { timeoutMs?: number }): Promise<void> };
  try {
    if (options.http !== undefined) {
      // Loaded only for --http / --ws, so stdio agents start faster.
      const { createAcpHttpServer, httpBearerToken } = await import("@acp-kit/transport-http/node");
      server = await createAcpHttpServer({
        host,
        port,
        logger,
        ...(options.token !== undefined ? { authenticate: httpBearerToken(options.token) } : {}),
        onConnection: (transport, info) => {
          logger.info?.(`connection ${info.connectionId} over ${info.profile}`);
          agent.serve(transport);
        },
      });
    } else {
      const { bearerToken, createAcpWebSocketServer } = await import("@acp-kit/transport-ws/node");
      server = await createAcpWebSocketServer({
        host,
        port,
        logger,
        ...(options.token !== undefined ? { authenticate: bearerToken(options.token) } : {}),
        onConnection: (transport, info) => {
          logger.info?.(`connection ${info.connectionId} from ${info.remoteAddress ?? "?"}`);
          agent.serve(transport);
        },
      });
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE" || code === "EACCES" || code === "EADDRNOTAVAIL") {
      const why =
        code === "EADDRINUSE"
          ? "is already in use"
          : code === "EACCES"
            ? "needs privileges this process does not have"
            : "is not an address of this machine";
      process.stderr.write(
        `${NAME}: cannot listen on ${host}:${port}: the address ${why} (${code}); try ${options.http ? "--http" : "--ws"} ${host}:0 for any free port\n`,
      );
      process.exit(1);
    }
    throw error;
  }
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

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

main().catch((error: unknown) => {
  process.stderr.write(`${NAME}: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
