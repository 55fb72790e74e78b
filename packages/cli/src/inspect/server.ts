/**
 * `acp-kit inspect`: an HTTP server on 127.0.0.1 with a random token in the URL. It serves the
 * page and its script, and bridges each WebSocket the page opens at /acp to a fresh agent
 * (spawned from the command, or the agent at `--ws URL`), payload for payload.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Transport } from "@acp-kit/protocol/jsonrpc";
import { bearerToken, createAcpWebSocketServer } from "@acp-kit/transport-ws/node";
import { type AgentTarget, describeTarget, type OpenedAgent, openAgent } from "../agent-target.js";
import { inspectorScript } from "./bundle.js";
import { inspectorPage } from "./page.js";

export interface Inspector {
  /** The page's URL, token included. */
  readonly url: string;
  close(): Promise<void>;
}

export interface InspectOptions {
  target: AgentTarget;
  cwd: string;
  port?: number;
  onNotice?: (text: string) => void;
}

function tokenOf(request: IncomingMessage): string | null {
  return new URL(request.url ?? "/", "http://127.0.0.1").searchParams.get("token");
}

/** Relays payloads both ways; either side ending ends the other. */
function bridge(page: Transport, agent: OpenedAgent): void {
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    void page.close().catch(() => {});
    void agent.close().catch(() => {});
  };
  agent.transport.start({ message: (payload) => page.send(payload) ?? undefined, closed: end });
  page.start({ message: (payload) => agent.transport.send(payload) ?? undefined, closed: end });
}

export async function startInspector(options: InspectOptions): Promise<Inspector> {
  const token = randomBytes(18).toString("base64url");
  const agents = new Set<OpenedAgent>();
  const http = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    if (tokenOf(request) !== token && path !== "/app.js") {
      response
        .writeHead(403, { "Content-Type": "text/plain" })
        .end("acp-kit inspect: the URL's token is missing or wrong\n");
      return;
    }
    if (path === "/") {
      response
        .writeHead(200, {
          "Content-Type": "text/html; charset=utf-8",
          "Cache-Control": "no-store",
          "Referrer-Policy": "no-referrer",
        })
        .end(inspectorPage({ cwd: options.cwd, title: describeTarget(options.target) }));
    } else if (path === "/app.js") {
      // The script holds no secret; the page and the WebSocket need the token.
      inspectorScript().then(
        (code) => response.writeHead(200, { "Content-Type": "text/javascript; charset=utf-8" }).end(code),
        (error: unknown) => response.writeHead(500).end(String(error)),
      );
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const port = (http.address() as { port: number }).port;
  const origin = `http://127.0.0.1:${port}`;
  const ws = await createAcpWebSocketServer({
    server: http,
    allowedOrigins: [origin],
    authenticate: bearerToken(token, { queryParameter: "token" }),
    onConnection: async (page) => {
      try {
        const agent = await openAgent(options.target);
        agents.add(agent);
        bridge(page, agent);
      } catch (error) {
        options.onNotice?.(`acp-kit inspect: cannot start the agent: ${(error as Error).message}\n`);
        await page.close();
      }
    },
  });
  return {
    url: `${origin}/?token=${token}`,
    async close() {
      await ws.close();
      for (const agent of agents) await agent.close().catch(() => {});
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
