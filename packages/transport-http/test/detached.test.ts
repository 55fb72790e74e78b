// A connection with no stream open is closed after `detachedTimeoutMs` without a request; a
// request moves that on, an open stream holds it off.
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { ACP_CONNECTION_ID_HEADER } from "../src/index.js";
import { HANDLER_URL, INITIALIZE_REQUEST, testHandler } from "./support.js";

const TIMEOUT_MS = 1_000;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

async function connect() {
  const h = testHandler({ detachedTimeoutMs: TIMEOUT_MS });
  const response = await h.handle(
    new Request(HANDLER_URL, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(INITIALIZE_REQUEST),
    }),
  );
  expect(response.status).toBe(200);
  const connectionId = response.headers.get(ACP_CONNECTION_ID_HEADER) as string;
  const headers = { [ACP_CONNECTION_ID_HEADER]: connectionId };
  /** A POSTed notification the agent ignores: a request of the client, nothing more. */
  const ping = () =>
    h.handle(
      new Request(HANDLER_URL, {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", method: "$/ping", params: {} }),
      }),
    );
  const get = () => h.handle(new Request(HANDLER_URL, { headers: { ...headers, Accept: "text/event-stream" } }));
  return { h, ping, get };
}

it("closes a connection that opened no stream once the timeout passed", async () => {
  const { h } = await connect();
  await vi.advanceTimersByTimeAsync(TIMEOUT_MS - 10);
  expect(h.connections).toBe(1);
  await vi.advanceTimersByTimeAsync(20);
  expect(h.connections).toBe(0);
});

it("counts the timeout from the last request", async () => {
  const { h, ping } = await connect();
  await vi.advanceTimersByTimeAsync(600);
  expect((await ping()).status).toBe(202);
  await vi.advanceTimersByTimeAsync(TIMEOUT_MS - 100);
  expect(h.connections).toBe(1);
  expect((await ping()).status).toBe(202);
  await vi.advanceTimersByTimeAsync(TIMEOUT_MS - 10);
  expect(h.connections).toBe(1);
  await vi.advanceTimersByTimeAsync(20);
  expect(h.connections).toBe(0);
});

it("keeps a connection with an open stream, and counts from when its last stream closed", async () => {
  const { h, get } = await connect();
  const stream = await get();
  expect(stream.status).toBe(200);
  await vi.advanceTimersByTimeAsync(5 * TIMEOUT_MS);
  expect(h.connections).toBe(1);
  await stream.body!.cancel();
  await vi.advanceTimersByTimeAsync(TIMEOUT_MS - 10);
  expect(h.connections).toBe(1);
  await vi.advanceTimersByTimeAsync(20);
  expect(h.connections).toBe(0);
});
