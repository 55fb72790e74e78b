// A live connection does not keep its `initialize` POST: the request (and, on Node, the request
// and response objects under it) can be collected once answered, whatever the connection's life.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { expect, it } from "vitest";
import { createAcpHttpHandler } from "../src/index.js";
import { onCleanup, testAgent } from "./support.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const init = JSON.stringify({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: 2, capabilities: {}, info: { name: "t", version: "0" } },
});

it("an open connection does not keep its initialize request alive", async () => {
  const handler = createAcpHttpHandler({ onConnection: (transport) => void testAgent.serve(transport) });
  onCleanup(() => handler.close());
  let request: Request | undefined = new Request("http://127.0.0.1/acp", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: init,
  });
  const collected = new WeakRef(request);
  const response = await handler.handle(request);
  expect(response.status).toBe(200);
  await response.text();
  request = undefined;
  // A WeakRef's target lives until the end of the job that made or read it: collect between jobs.
  for (let i = 0; i < 20 && collected.deref() !== undefined; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  expect(collected.deref()).toBeUndefined();
  expect(handler.connections).toBe(1);
});
