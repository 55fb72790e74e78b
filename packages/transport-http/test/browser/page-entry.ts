// Runs in headless Chromium, on a page served from another origin than the ACP endpoint: the
// browser build of connectHttp (fetch with streamed responses, `credentials: "include"`)
// carries the client through scenario.ts. The page publishes the chunks received so far on
// `window.__acpChunks` and the outcome on `window.__acpResult`.
import { connectHttp } from "../../src/index.js";
import { runScenario } from "./scenario.js";

async function main(): Promise<unknown> {
  const endpoint = new URLSearchParams(location.search).get("endpoint") ?? "";
  const transport = await connectHttp(endpoint, { reconnect: { initialMs: 20, maxMs: 200 } });
  const result = await runScenario(transport, (chunks) => Object.assign(globalThis, { __acpChunks: chunks }));
  return { ...result, connectionId: transport.connectionId ?? null };
}

main().then(
  (result) => Object.assign(globalThis, { __acpResult: result }),
  (error: unknown) => Object.assign(globalThis, { __acpResult: { error: String(error) } }),
);
