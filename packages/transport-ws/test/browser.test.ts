// Headless Chromium drives the browser entry against our server. Without Chromium the test
// skips saying how to install it; a broken CHROMIUM_PATH, or no Chromium in CI, fails it
// (test/browser/chromium.ts).
import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import type { AcpConnectionInfo } from "../src/node/index.js";
import { bundleForBrowser, pageEntry } from "./browser/bundle.js";
import { launchChromium, requireChromium } from "./browser/chromium.js";
import { onCleanup, startServer } from "./support.js";

describe("browser client in headless Chromium", () => {
  it("connects to /acp, sends initialize and gets the answer", async ({ skip }) => {
    const executablePath = requireChromium(skip);
    const { code } = await bundleForBrowser(pageEntry);
    const http = createServer((request, response) => {
      if (request.url === "/app.js") {
        response.writeHead(200, { "Content-Type": "text/javascript" }).end(code);
      } else if (request.url === "/") {
        response
          .writeHead(200, { "Content-Type": "text/html" })
          .end('<!doctype html><script type="module" src="/app.js"></script>');
      } else {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    onCleanup(async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    });
    const origin = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
    const infos: AcpConnectionInfo[] = [];
    await startServer({
      server: http,
      allowedOrigins: [origin],
      onConnection: (transport, info) => {
        infos.push(info);
        transport.start({
          message(payload) {
            const request = JSON.parse(payload) as { id: number };
            void transport.send(
              JSON.stringify({
                jsonrpc: "2.0",
                id: request.id,
                result: { protocolVersion: 2, info: { name: "ws-agent", version: "1.0.0" }, capabilities: {} },
              }),
            );
          },
          closed() {},
        });
      },
    });

    const context = await launchChromium(executablePath, onCleanup);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => (globalThis as { __acpResult?: unknown }).__acpResult !== undefined, undefined, {
      timeout: 15_000,
    });
    const result = await page.evaluate(() => (globalThis as { __acpResult?: unknown }).__acpResult);
    expect(result).toEqual({
      response: {
        jsonrpc: "2.0",
        id: 1,
        result: { protocolVersion: 2, info: { name: "ws-agent", version: "1.0.0" }, capabilities: {} },
      },
      connectionId: null, // browsers do not expose upgrade response headers
    });
    expect(infos).toHaveLength(1);
    expect(infos[0]!.origin).toBe(origin);
  }, 60_000);
});
