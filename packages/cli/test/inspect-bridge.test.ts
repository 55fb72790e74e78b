// The inspector's WebSocket bridge without a browser: the token and the page's origin are both
// required, and each connection reaches a fresh agent (here one served over WebSocket, --ws URL).
import { spawn } from "node:child_process";
import { Connection } from "@acp-kit/protocol/jsonrpc";
import { connectWebSocket } from "@acp-kit/transport-ws/node";
import { afterAll, describe, expect, it } from "vitest";
import { startInspector } from "../src/inspect/server.js";
import { sampleAgentBin } from "./paths.js";

const cleanups: (() => Promise<unknown> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function wsAgentUrl(): Promise<string> {
  const child = spawn(process.execPath, [sampleAgentBin, "--pace", "0", "--ws", "127.0.0.1:0"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  cleanups.push(() => void child.kill());
  return new Promise((resolve, reject) => {
    let text = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      text += chunk;
      const match = /listening on (ws:\/\/\S+)/.exec(text);
      if (match) resolve(match[1] as string);
    });
    child.on("exit", () => reject(new Error(`the agent exited: ${text}`)));
  });
}

describe("inspector bridge", () => {
  it("needs the token and the page's origin, then relays to the agent", async () => {
    const inspector = await startInspector({ target: { ws: await wsAgentUrl() }, cwd: "/tmp" });
    cleanups.push(() => inspector.close());
    const page = new URL(inspector.url);
    const token = page.searchParams.get("token") as string;
    const endpoint = (t: string) => `ws://${page.host}/acp?token=${encodeURIComponent(t)}`;

    await expect(connectWebSocket(endpoint("not-the-token"), { origin: page.origin })).rejects.toThrow();
    await expect(connectWebSocket(endpoint(token), { origin: "http://evil.example" })).rejects.toThrow();

    const transport = await connectWebSocket(endpoint(token), { origin: page.origin });
    const connection = new Connection(transport);
    connection.listen();
    const result = (await connection.request("initialize", {
      protocolVersion: 2,
      info: { name: "t", version: "1" },
      capabilities: {},
    })) as {
      info: { name: string };
    };
    expect(result.info.name).toBe("acp-sample-agent");
    await connection.close();
  });
});
