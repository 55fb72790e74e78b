// What an open connection keeps alive: not its upgrade request (headers, URL, the HTTP parser's
// buffers), which a server holding thousands of idle connections would otherwise pay for each.
import type { IncomingMessage } from "node:http";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { expect, it } from "vitest";
import { connectWebSocket } from "../src/node/index.js";
import { echoInitialize, initializeRequest, recordingSink, startServer, track } from "./support.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

it("lets the upgrade request go once the connection is accepted", async () => {
  let request: WeakRef<IncomingMessage> | undefined;
  const server = await startServer({
    onConnection: (transport, info) => {
      request = new WeakRef(info.request);
      transport.start(echoInitialize(transport));
    },
  });
  const client = track(await connectWebSocket(server.url));
  const sink = recordingSink();
  client.start(sink);
  await client.send(initializeRequest(1));
  await sink.nextMessage();
  // Collected only once nothing reachable refers to it (a few rounds: finalizers of the socket's
  // parser run between them).
  for (let i = 0; i < 5 && request?.deref() !== undefined; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  expect(server.connections).toBe(1);
  expect(request?.deref()).toBeUndefined();
});
