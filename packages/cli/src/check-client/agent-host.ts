/**
 * The checker's end of `check client`: it hands out the command (or WebSocket URL) that
 * stands for `{agent}`, accepts the connection the client opens through it, and serves a
 * scripted agent on it. One connection per scenario; each one is authenticated by a token.
 */
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { createServer, type Server, type Socket } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Transport } from "@acp-kit/protocol/jsonrpc";
import { ndjsonTransport } from "@acp-kit/transport-stdio";
import { type AcpWebSocketServer, bearerToken, createAcpWebSocketServer } from "@acp-kit/transport-ws/node";

/**
 * The words that start the relay: `node relay.js` when built; from sources (tests), node with
 * tsx's loader by absolute URL, since the client may run in any directory.
 */
function relayCommand(): string[] {
  if (!import.meta.url.endsWith(".ts"))
    return [process.execPath, fileURLToPath(new URL("./relay.js", import.meta.url))];
  const tsxPackage = createRequire(import.meta.url).resolve("tsx/package.json");
  const loader = pathToFileURL(join(dirname(tsxPackage), "dist", "loader.mjs")).href;
  return [process.execPath, "--import", loader, fileURLToPath(new URL("./relay.ts", import.meta.url))];
}

export interface AgentHost {
  /** What replaces `{agent}`: argv words (stdio) or one URL word (WebSocket); `{token}`: the WebSocket bearer token. */
  placeholders(): Record<string, string[]>;
  /** The next connection a client opens through `agentWords()`. */
  nextConnection(timeoutMs: number): Promise<Transport | undefined>;
  close(): Promise<void>;
}

class Queue {
  readonly #ready: Transport[] = [];
  readonly #waiting: ((t: Transport) => void)[] = [];
  push(t: Transport): void {
    const waiter = this.#waiting.shift();
    if (waiter) waiter(t);
    else this.#ready.push(t);
  }
  next(timeoutMs: number): Promise<Transport | undefined> {
    const ready = this.#ready.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiting.splice(this.#waiting.indexOf(take), 1);
        resolve(undefined);
      }, timeoutMs);
      const take = (t: Transport) => {
        clearTimeout(timer);
        resolve(t);
      };
      this.#waiting.push(take);
    });
  }
}

export async function stdioAgentHost(): Promise<AgentHost> {
  const token = randomBytes(16).toString("hex");
  const queue = new Queue();
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    // The first line must be the token; anything else is dropped at once.
    let head = "";
    const onData = (chunk: Buffer) => {
      head += chunk.toString("utf8");
      const nl = head.indexOf("\n");
      if (nl === -1) {
        if (head.length > 256) socket.destroy();
        return;
      }
      socket.off("data", onData);
      if (head.slice(0, nl) !== token) {
        socket.destroy();
        return;
      }
      const rest = head.slice(nl + 1);
      socket.pause();
      if (rest.length > 0) socket.unshift(Buffer.from(rest, "utf8"));
      queue.push(ndjsonTransport(socket, socket));
    };
    socket.on("data", onData);
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    placeholders: () => ({ "{agent}": [...relayCommand(), `127.0.0.1:${port}`, token] }),
    nextConnection: (timeoutMs) => queue.next(timeoutMs),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export async function wsAgentHost(): Promise<AgentHost> {
  const token = randomBytes(16).toString("hex");
  const queue = new Queue();
  const server: AcpWebSocketServer = await createAcpWebSocketServer({
    host: "127.0.0.1",
    port: 0,
    authenticate: bearerToken(token),
    onConnection: (transport) => queue.push(transport),
  });
  return {
    // Clients that take a URL and a token: `--ws {agent} --token {token}` is the usual shape.
    placeholders: () => ({ "{agent}": [server.url], "{token}": [token] }),
    nextConnection: (timeoutMs) => queue.next(timeoutMs),
    close: () => server.close(),
  };
}
