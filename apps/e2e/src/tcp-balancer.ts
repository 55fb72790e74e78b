/**
 * A loopback TCP balancer for fleet tests: each new connection goes to the next target in turn,
 * and to the one after it when that target refuses (a dead instance). It records where each
 * connection went, so a test can tell which instance served it.
 */
import { connect, createServer, type Server, type Socket } from "node:net";

export interface TcpBalancer {
  readonly port: number;
  /** Target port of each accepted connection, in order (`undefined`: every target refused). */
  readonly routes: (number | undefined)[];
  close(): Promise<void>;
}

function dial(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => resolve(socket));
    socket.once("error", reject);
  });
}

export async function startTcpBalancer(targets: readonly number[]): Promise<TcpBalancer> {
  if (targets.length === 0) throw new Error("startTcpBalancer needs at least one target");
  const sockets = new Set<Socket>();
  const routes: (number | undefined)[] = [];
  let next = 0;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
  };
  const server: Server = createServer((downstream) => {
    track(downstream);
    downstream.pause();
    const route = routes.push(undefined) - 1;
    const start = next++;
    void (async () => {
      for (let attempt = 0; attempt < targets.length; attempt++) {
        const port = targets[(start + attempt) % targets.length] as number;
        let upstream: Socket;
        try {
          upstream = await dial(port);
        } catch {
          continue;
        }
        track(upstream);
        routes[route] = port;
        downstream.pipe(upstream);
        upstream.pipe(downstream);
        downstream.on("close", () => upstream.destroy());
        upstream.on("close", () => downstream.destroy());
        downstream.resume();
        return;
      }
      downstream.destroy();
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("balancer has no port");
  return {
    port: address.port,
    routes,
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
