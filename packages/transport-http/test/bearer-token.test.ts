// httpBearerToken on the endpoint: no token or a wrong one gets 401 with the Bearer challenge on
// every request, a right one (any of several) gets through, and connectHttp sends it.
import { describe, expect, it } from "vitest";
import { connectHttp, createAcpHttpHandler, httpBearerToken } from "../src/index.js";
import { connectClient, onCleanup, startAgentServer, testAgent } from "./support.js";

const init = JSON.stringify({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: 2, capabilities: {}, info: { name: "t", version: "0" } },
});

function initialize(headers: Record<string, string> = {}) {
  return new Request("http://127.0.0.1/acp", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: init,
  });
}

describe("httpBearerToken", () => {
  it.each([
    ["no Authorization", {}, 'Bearer realm="acp"', "Missing bearer token"],
    ["another scheme", { Authorization: "Basic czNjcmV0" }, 'Bearer realm="acp"', "Missing bearer token"],
    [
      "a wrong token",
      { Authorization: "Bearer s3cre" },
      'Bearer realm="acp", error="invalid_token"',
      "Invalid bearer token",
    ],
  ])("%s: 401 with the challenge, and no connection", async (_, headers, challenge, message) => {
    const handler = createAcpHttpHandler({
      authenticate: httpBearerToken(["other", "s3cret"]),
      onConnection: (transport) => void testAgent.serve(transport),
    });
    onCleanup(() => handler.close());
    const response = await handler.handle(initialize(headers));
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(challenge);
    expect(await response.text()).toBe(message);
    expect(handler.connections).toBe(0);
  });

  it("any of the tokens gets through; connectHttp sends it on every request", async () => {
    const server = await startAgentServer({ authenticate: httpBearerToken(["other", "s3cret"], { realm: "r" }) });
    const client = await connectClient(await connectHttp(server.url, { headers: { Authorization: "Bearer s3cret" } }));
    const session = await client.newSession({ cwd: "/w" });
    expect(await session.prompt("count 2").done).toEqual({ stopReason: "end_turn" });
    const refused = await fetch(server.url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: init,
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="r"');
  });

  it("needs at least one token", () => {
    expect(() => httpBearerToken([])).toThrow("httpBearerToken needs at least one token");
  });
});
