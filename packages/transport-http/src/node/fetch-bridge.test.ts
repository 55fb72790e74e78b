// The Request's signal: aborted when the client leaves mid-response, never after a response ended.
import { once } from "node:events";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { toFetchRequest } from "./fetch-bridge.js";

const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server answering each request with `respond`, reporting its fetch Request's signal when the response closes. */
async function serve(respond: (response: import("node:http").ServerResponse) => void) {
  const closed: Promise<AbortSignal>[] = [];
  const server = createServer((request, response) => {
    const signal = toFetchRequest(request, response, "http://127.0.0.1").signal;
    closed.push(once(response, "close").then(() => signal));
    respond(response);
  });
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { port: (server.address() as AddressInfo).port, closed };
}

describe("toFetchRequest's signal", () => {
  it("is not aborted when the server ended the response", async () => {
    const { port, closed } = await serve((response) => response.end("done"));
    const answer = await fetch(`http://127.0.0.1:${port}/`);
    expect(await answer.text()).toBe("done");
    const signal = await closed[0]!;
    expect(signal.aborted).toBe(false);
  });

  it("aborts when the client goes away before the response ends", async () => {
    const { port, closed } = await serve((response) => response.write("partial"));
    const client = httpRequest({ port, host: "127.0.0.1" });
    client.end();
    const [incoming] = (await once(client, "response")) as [import("node:http").IncomingMessage];
    incoming.once("data", () => client.destroy());
    const signal = await closed[0]!;
    expect(signal.aborted).toBe(true);
  });
});
