// Runs in headless Chromium: the browser entry connects to /acp on the page's own origin,
// sends initialize and publishes what came back on `window.__acpResult`.
import { connectWebSocket } from "../../src/index.js";

declare const location: { host: string };

async function main(): Promise<unknown> {
  const transport = await connectWebSocket(`ws://${location.host}/acp`);
  const response = new Promise<string>((resolve) => transport.start({ message: resolve, closed() {} }));
  await transport.send(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: 2, info: { name: "browser", version: "1.0.0" }, capabilities: {} },
    }),
  );
  const parsed = JSON.parse(await response) as unknown;
  await transport.close();
  return { response: parsed, connectionId: transport.connectionId ?? null };
}

main().then(
  (result) => Object.assign(globalThis, { __acpResult: result }),
  (error: unknown) => Object.assign(globalThis, { __acpResult: { error: String(error) } }),
);
