// The RFD's routing table and content rules, and bad input, against both front ends of the handler.
import { beforeEach, describe, expect, it } from "vitest";
import type { AcpHttpHandlerOptions } from "../src/index.js";
import { ACP_CONNECTION_ID_HEADER, ACP_SESSION_ID_HEADER } from "../src/index.js";
import { FRONT_ENDS, HANDLER_URL, INITIALIZE_REQUEST, testHandler, useFrontEnd } from "./support.js";

function post(body: unknown, headers: Record<string, string> = {}) {
  return new Request(HANDLER_URL, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function connected(options: Partial<AcpHttpHandlerOptions> = {}) {
  const h = testHandler(options);
  const response = await h.handle(post(INITIALIZE_REQUEST));
  expect(response.status).toBe(200);
  const connectionId = response.headers.get(ACP_CONNECTION_ID_HEADER) as string;
  expect(connectionId).toMatch(/^[0-9a-f-]{36}$/);
  expect(await response.json()).toMatchObject({ id: 0, result: { protocolVersion: 2 } });
  return { h, connectionId };
}

describe.each(FRONT_ENDS)("routing and content rules (%s front end)", (frontEnd) => {
  beforeEach(() => useFrontEnd(frontEnd));
  it("initialize answers 200 with JSON and Acp-Connection-Id; DELETE ends the connection", async () => {
    const { h, connectionId } = await connected();
    expect(h.connections).toBe(1);
    const deleted = await h.handle(
      new Request(HANDLER_URL, { method: "DELETE", headers: { [ACP_CONNECTION_ID_HEADER]: connectionId } }),
    );
    expect(deleted.status).toBe(202);
    expect(h.connections).toBe(0);
    const again = await h.handle(
      post(
        { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/" } },
        { [ACP_CONNECTION_ID_HEADER]: connectionId },
      ),
    );
    expect(again.status).toBe(404);
  });

  const cases: [string, (id: string) => Request, number][] = [
    [
      "POST with another content type",
      () => new Request(HANDLER_URL, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "{}" }),
      415,
    ],
    [
      "POST without Acp-Connection-Id",
      () => post({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/" } }),
      400,
    ],
    [
      "POST with an unknown Acp-Connection-Id",
      () => post({ jsonrpc: "2.0", id: 1, method: "session/new", params: {} }, { [ACP_CONNECTION_ID_HEADER]: "nope" }),
      404,
    ],
    [
      "POST of a batch",
      (id) => post([{ jsonrpc: "2.0", id: 1, method: "session/new" }], { [ACP_CONNECTION_ID_HEADER]: id }),
      501,
    ],
    ["POST of invalid JSON", (id) => post("{nope", { [ACP_CONNECTION_ID_HEADER]: id }), 400],
    ["POST of a non-message", (id) => post({ hello: 1 }, { [ACP_CONNECTION_ID_HEADER]: id }), 400],
    [
      "session-scoped POST without Acp-Session-Id",
      (id) =>
        post(
          { jsonrpc: "2.0", id: 1, method: "session/prompt", params: { sessionId: "s", prompt: [] } },
          { [ACP_CONNECTION_ID_HEADER]: id },
        ),
      400,
    ],
    [
      "POST whose Acp-Session-Id differs from params",
      (id) =>
        post(
          { jsonrpc: "2.0", id: 1, method: "session/prompt", params: { sessionId: "s", prompt: [] } },
          { [ACP_CONNECTION_ID_HEADER]: id, [ACP_SESSION_ID_HEADER]: "t" },
        ),
      400,
    ],
    ["initialize on an existing connection", (id) => post(INITIALIZE_REQUEST, { [ACP_CONNECTION_ID_HEADER]: id }), 400],
    [
      "an over-long request id",
      (id) =>
        post(
          { jsonrpc: "2.0", id: "x".repeat(2000), method: "session/new", params: { cwd: "/" } },
          { [ACP_CONNECTION_ID_HEADER]: id },
        ),
      400,
    ],
    [
      "GET without Accept: text/event-stream",
      (id) => new Request(HANDLER_URL, { headers: { Accept: "application/json", [ACP_CONNECTION_ID_HEADER]: id } }),
      406,
    ],
    [
      "GET without Acp-Connection-Id",
      () => new Request(HANDLER_URL, { headers: { Accept: "text/event-stream" } }),
      400,
    ],
    [
      "GET with an unknown Acp-Connection-Id",
      () => new Request(HANDLER_URL, { headers: { Accept: "text/event-stream", [ACP_CONNECTION_ID_HEADER]: "nope" } }),
      404,
    ],
    [
      "GET with an over-long Acp-Session-Id",
      (id) =>
        new Request(HANDLER_URL, {
          headers: {
            Accept: "text/event-stream",
            [ACP_CONNECTION_ID_HEADER]: id,
            [ACP_SESSION_ID_HEADER]: "s".repeat(2000),
          },
        }),
      400,
    ],
    ["DELETE without Acp-Connection-Id", () => new Request(HANDLER_URL, { method: "DELETE" }), 400],
    [
      "DELETE with an unknown Acp-Connection-Id",
      () => new Request(HANDLER_URL, { method: "DELETE", headers: { [ACP_CONNECTION_ID_HEADER]: "nope" } }),
      404,
    ],
    ["PUT", () => new Request(HANDLER_URL, { method: "PUT" }), 405],
  ];
  it.each(cases)("%s → %i", async (_name, request, status) => {
    const { h, connectionId } = await connected();
    const response = await h.handle(request(connectionId));
    expect(response.status).toBe(status);
    expect(await response.text()).not.toBe("");
  });

  it("a body over maxBodyBytes → 413, without reading it all", async () => {
    const { h, connectionId } = await connected({ maxBodyBytes: 1024 });
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(512).fill(32));
        if (pulled > 100_000) controller.close();
      },
    });
    const request = new Request(HANDLER_URL, {
      method: "POST",
      headers: { "Content-Type": "application/json", [ACP_CONNECTION_ID_HEADER]: connectionId },
      body,
      duplex: "half",
    } as RequestInit);
    const response = await h.handle(request);
    expect(response.status).toBe(413);
    // In process nothing more is pulled; over a socket, the client sends on until the answer arrives.
    expect(pulled).toBeLessThan(frontEnd === "fetch" ? 10 : 100_000);
  });

  it("a second receiver on an open stream → 409; with Last-Event-ID it takes over", async () => {
    const { h, connectionId } = await connected();
    const get = (headers: Record<string, string> = {}) =>
      h.handle(
        new Request(HANDLER_URL, {
          headers: { Accept: "text/event-stream", [ACP_CONNECTION_ID_HEADER]: connectionId, ...headers },
        }),
      );
    const first = await get();
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("text/event-stream");
    expect((await get()).status).toBe(409);
    const second = await get({ "Last-Event-ID": "0" });
    expect(second.status).toBe(200);
    // The replaced response ends.
    const reader = first.body!.getReader();
    for (;;) if ((await reader.read()).done) break;
    await second.body!.cancel();
  });

  it("streams per connection are bounded → 429", async () => {
    const { h, connectionId } = await connected({ maxStreamsPerConnection: 3 });
    const get = (session: string) =>
      h.handle(
        new Request(HANDLER_URL, {
          headers: {
            Accept: "text/event-stream",
            [ACP_CONNECTION_ID_HEADER]: connectionId,
            [ACP_SESSION_ID_HEADER]: session,
          },
        }),
      );
    const open = [await get("a"), await get("b")];
    expect(open.map((r) => r.status)).toEqual([200, 200]);
    expect((await get("c")).status).toBe(429);
    for (const r of open) await r.body!.cancel();
  });

  it("maxConnections → 503 with Retry-After", async () => {
    const { h } = await connected({ maxConnections: 1 });
    const refused = await h.handle(post(INITIALIZE_REQUEST));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
  });

  it("Origin allow-list → 403 for others, CORS headers for allowed ones; bearer token → 401", async () => {
    const { httpBearerToken } = await import("../src/index.js");
    const h = testHandler({ allowedOrigins: ["https://editor.example"], authenticate: httpBearerToken("secret") });
    const bad = await h.handle(
      post(INITIALIZE_REQUEST, { Origin: "https://evil.example", Authorization: "Bearer secret" }),
    );
    expect(bad.status).toBe(403);
    const noToken = await h.handle(post(INITIALIZE_REQUEST, { Origin: "https://editor.example" }));
    expect(noToken.status).toBe(401);
    expect(noToken.headers.get("www-authenticate")).toContain("Bearer");
    const wrong = await h.handle(post(INITIALIZE_REQUEST, { Authorization: "Bearer nope" }));
    expect(wrong.status).toBe(401);
    const ok = await h.handle(
      post(INITIALIZE_REQUEST, { Origin: "https://editor.example", Authorization: "Bearer secret" }),
    );
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://editor.example");
    expect(ok.headers.get("access-control-expose-headers")).toContain(ACP_CONNECTION_ID_HEADER);
  });
});
