// Our client in headless Chromium over Streamable HTTP, from a page on another origin than the
// endpoint (as a web app calls a remote agent): the Origin allow-list, CORS with credentials and
// the exposed Acp-Connection-Id must all work for it to connect, and the affinity cookie must come
// back on every request. The page runs a turn with a permission request, a cancelled turn and a
// long turn during which the server drops every GET stream several times; its store must equal a
// Node client's uncut run of the same scenario.
// Without Chromium the test skips saying how to install it; a broken CHROMIUM_PATH fails it.
import { createServer } from "node:http";
import type { Socket } from "node:net";
import { defineAgent } from "@acp-kit/agent";
import { describe, expect, it, vi } from "vitest";
import { kitTurn } from "../../client/test/support/kit-agent.js";
import { bundleForBrowser } from "../../transport-ws/test/browser/bundle.js";
import { launchChromium, requireChromium } from "../../transport-ws/test/browser/chromium.js";
import { connectHttp } from "../src/index.js";
import { createAcpHttpServer } from "../src/node/index.js";
import { CHUNKS, GATES, runScenario, type ScenarioResult } from "./browser/scenario.js";
import { onCleanup } from "./support.js";

const pageEntry = new URL("./browser/page-entry.ts", import.meta.url).pathname;

/** Where the agent pauses in the long turn until the test lets it go on. */
class Gates {
  private readonly arrived = new Map<number, () => void>();
  private readonly waiting = new Map<number, () => void>();

  /** The agent, at gate `gate`: resolves once the test releases it. */
  pass(gate: number): Promise<void> {
    return new Promise((release) => {
      this.arrived.set(gate, release);
      this.waiting.get(gate)?.();
    });
  }

  /** The test: resolves with the release once the agent waits at `gate`. */
  async reached(gate: number): Promise<() => void> {
    if (!this.arrived.has(gate)) await new Promise<void>((resolve) => this.waiting.set(gate, resolve));
    return this.arrived.get(gate) as () => void;
  }
}

/** Our endpoint with the test's agent; it can drop every open GET stream and counts the resumed ones. */
async function startEndpoint(gates: Gates, allowedOrigins: string[] = []) {
  const agent = defineAgent({
    info: { name: "browser-test-agent", version: "0.0.0" },
    async prompt(turn) {
      const gated = /^gated (\d+)/.exec(turn.text);
      if (!gated) return kitTurn(turn);
      for (let i = 0; i < Number(gated[1]); i++) {
        if (GATES.includes(i)) await gates.pass(i);
        await turn.say(`chunk ${i} `);
      }
      return "end_turn";
    },
  });
  const origins: (string | undefined)[] = [];
  const server = await createAcpHttpServer({
    allowedOrigins,
    // An affinity cookie, as a proxy in front of a fleet sets: the browser must send it back.
    initializeHeaders: () => ({ "Set-Cookie": "acp-affinity=one; Path=/; HttpOnly" }),
    onConnection: (transport, info) => {
      origins.push(info.origin);
      agent.serve(transport);
    },
  });
  onCleanup(() => server.close());
  // Open GET streams by socket: true for a session's stream, false for the connection stream.
  const streams = new Map<Socket, boolean>();
  let resumed = 0;
  const requests: { method: string; cookie: unknown }[] = [];
  server.httpServer.on("request", (request: { method?: string; headers: Record<string, unknown>; socket: Socket }) => {
    requests.push({ method: request.method ?? "", cookie: request.headers.cookie });
    if (request.method !== "GET") return;
    const session = request.headers["acp-session-id"] !== undefined;
    if (session && request.headers["last-event-id"] !== undefined) resumed++;
    streams.set(request.socket, session);
    request.socket.once("close", () => streams.delete(request.socket));
  });
  return {
    server,
    origins,
    requests,
    /** Session streams that came back with `Last-Event-ID`. */
    get resumed() {
      return resumed;
    },
    /** Destroys the socket of every open GET stream (the server drops them mid-turn); returns the session streams cut. */
    cutStreams(): number {
      const cut = [...streams.values()].filter(Boolean).length;
      for (const socket of streams.keys()) socket.destroy();
      streams.clear();
      return cut;
    },
  };
}

/**
 * Lets the agent through each gate once the client holds every chunk before it, cutting first if
 * asked; `failed` rejects when the client gave up (so the test fails with its error, not a timeout).
 */
async function driveGates(
  gates: Gates,
  received: (chunks: number) => Promise<unknown>,
  failed: Promise<never>,
  cut?: () => number,
) {
  let cuts = 0;
  for (const gate of GATES) {
    const release = await Promise.race([gates.reached(gate), failed]);
    await Promise.race([received(gate), failed]);
    if (cut) cuts += cut();
    release();
  }
  return cuts;
}

/** Serves the page and its bundled script on an origin of its own. */
async function startPageServer(): Promise<string> {
  const { code } = await bundleForBrowser(pageEntry);
  const http = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://page").pathname;
    if (path === "/app.js") response.writeHead(200, { "Content-Type": "text/javascript" }).end(code);
    else if (path === "/")
      response
        .writeHead(200, { "Content-Type": "text/html" })
        .end('<!doctype html><script type="module" src="/app.js"></script>');
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  onCleanup(async () => {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });
  return `http://127.0.0.1:${(http.address() as { port: number }).port}`;
}

async function nodeRun(): Promise<ScenarioResult> {
  const gates = new Gates();
  const { server } = await startEndpoint(gates);
  let chunks = 0;
  const run = runScenario(await connectHttp(server.url), (n) => {
    chunks = n;
  });
  await driveGates(
    gates,
    (gate) => vi.waitFor(() => expect(chunks).toBe(gate), { timeout: 20_000 }),
    run.then(() => Promise.reject(new Error("the scenario ended before the gates"))),
  );
  return run;
}

describe("our client in headless Chromium over Streamable HTTP", () => {
  it("from another origin: a permission, a cancel and dropped streams; the store equals a Node client's", async ({
    skip,
  }) => {
    const executablePath = requireChromium(skip);
    const pageOrigin = await startPageServer();
    const gates = new Gates();
    const endpoint = await startEndpoint(gates, [pageOrigin]);
    expect(new URL(endpoint.server.url).origin).not.toBe(pageOrigin);

    const context = await launchChromium(executablePath, onCleanup);
    const page = context.pages()[0] ?? (await context.newPage());
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await page.goto(`${pageOrigin}/?endpoint=${encodeURIComponent(endpoint.server.url)}`);
    const pageFailed = page
      .waitForFunction(() => (globalThis as { __acpResult?: { error?: string } }).__acpResult?.error, undefined, {
        timeout: 0,
      })
      .then(async (error) => Promise.reject(new Error(`the page failed: ${await error.jsonValue()}`)));
    pageFailed.catch(() => {});
    const cuts = await driveGates(
      gates,
      (gate) =>
        page.waitForFunction((n) => (globalThis as { __acpChunks?: number }).__acpChunks === n, gate, {
          timeout: 20_000,
        }),
      pageFailed,
      () => endpoint.cutStreams(),
    );
    await page.waitForFunction(() => (globalThis as { __acpResult?: unknown }).__acpResult !== undefined, undefined, {
      timeout: 30_000,
    });
    const browser = (await page.evaluate(() => (globalThis as { __acpResult?: unknown }).__acpResult)) as
      | (ScenarioResult & { connectionId: string | null })
      | { error: string };
    expect(pageErrors).toEqual([]);
    if ("error" in browser) throw new Error(`the page failed: ${browser.error}`);

    // Cross-origin for real: the endpoint saw the page's Origin, and the page read the exposed header.
    expect(endpoint.origins).toEqual([pageOrigin]);
    expect(browser.connectionId).toMatch(/\S/);
    // `credentials: "include"`: after the initialize that set it, every request carried the
    // cookie (preflights never carry credentials).
    const [initialize, ...after] = endpoint.requests.filter((r) => r.method !== "OPTIONS");
    expect(initialize).toMatchObject({ method: "POST", cookie: undefined });
    expect(after.length).toBeGreaterThan(10);
    expect(after.filter((r) => r.cookie !== "acp-affinity=one")).toEqual([]);
    // Every gate dropped the session's stream, and each time it came back resuming from Last-Event-ID.
    expect(cuts).toBe(GATES.length);
    expect(endpoint.resumed).toBeGreaterThanOrEqual(cuts);
    expect(browser.stopReasons).toEqual(["end_turn", "cancelled", "end_turn"]);

    const node = await nodeRun();
    expect(node.stopReasons).toEqual(browser.stopReasons);
    expect(browser.store).toEqual(node.store);
    // Nothing missing, nothing repeated: the long turn's chunks in order, once each.
    // (The store holds each chunk twice: in its messages and in its timeline.)
    const chunks = Array.from({ length: CHUNKS }, (_, i) => `chunk ${i} `);
    expect(JSON.stringify(browser.store).match(/chunk \d+ /g)).toEqual([...chunks, ...chunks]);
  }, 90_000);

  it("a page whose origin is not allowed gets no connection", async ({ skip }) => {
    const executablePath = requireChromium(skip);
    const pageOrigin = await startPageServer();
    const endpoint = await startEndpoint(new Gates(), ["http://allowed.example"]);
    const context = await launchChromium(executablePath, onCleanup);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${pageOrigin}/?endpoint=${encodeURIComponent(endpoint.server.url)}`);
    await page.waitForFunction(() => (globalThis as { __acpResult?: unknown }).__acpResult !== undefined, undefined, {
      timeout: 20_000,
    });
    const result = (await page.evaluate(() => (globalThis as { __acpResult?: unknown }).__acpResult)) as {
      error?: string;
    };
    expect(result.error).toMatch(/\S/);
    expect(endpoint.origins).toEqual([]);
    expect(endpoint.server.handler.connections).toBe(0);
  }, 60_000);
});
