// The node:http2 adapter, cleartext (h2c): initialize, a GET stream and a held response over one HTTP/2 session.
import { connect } from "node:http2";
import { expect, it } from "vitest";
import { ACP_CONNECTION_ID_HEADER } from "../src/index.js";
import { onCleanup, startAgentServer } from "./support.js";

function request(session: ReturnType<typeof connect>, headers: Record<string, string>, body?: string) {
  const stream = session.request(headers);
  if (body !== undefined) stream.end(body);
  return new Promise<{ status: number; headers: Record<string, unknown>; stream: typeof stream }>((resolve) =>
    stream.once("response", (h) => resolve({ status: Number(h[":status"]), headers: h, stream })),
  );
}

it("serves Streamable HTTP over h2c", async () => {
  const server = await startAgentServer({ protocol: "h2c" });
  expect(server.webSocket).toBeUndefined();
  const session = connect(`http://127.0.0.1:${server.port}`);
  onCleanup(() => session.close());
  const init = await request(
    session,
    { ":method": "POST", ":path": "/acp", "content-type": "application/json" },
    JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: 2, capabilities: {}, info: { name: "h2", version: "0" } },
    }),
  );
  expect(init.status).toBe(200);
  const connectionId = init.headers[ACP_CONNECTION_ID_HEADER.toLowerCase()] as string;
  expect(connectionId).toMatch(/\S+/);
  init.stream.resume();
  const posted = await request(
    session,
    {
      ":method": "POST",
      ":path": "/acp",
      "content-type": "application/json",
      [ACP_CONNECTION_ID_HEADER]: connectionId,
    },
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/w" } }),
  );
  expect(posted.status).toBe(202);
  posted.stream.resume();
  const get = await request(session, {
    ":method": "GET",
    ":path": "/acp",
    accept: "text/event-stream",
    [ACP_CONNECTION_ID_HEADER]: connectionId,
  });
  expect(get.status).toBe(200);
  let text = "";
  get.stream.setEncoding("utf8");
  await new Promise<void>((resolve) => {
    get.stream.on("data", (chunk: string) => {
      text += chunk;
      if (text.includes('"sessionId"')) resolve();
    });
  });
  expect(text).toMatch(/id: 1\ndata: \{"jsonrpc":"2.0","id":1,"result":\{"sessionId":/);
  get.stream.close();
});
