import { readFileSync } from "node:fs";
import { createInMemoryTransportPair } from "@acp-kit/protocol/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import { echoAgent } from "../examples/echo.js";
import { ScriptedClient } from "./support/harness.js";

const root = new URL("../", import.meta.url);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe("README echo example", () => {
  it("is included verbatim in the README and is under 25 lines", () => {
    const example = readFileSync(new URL("examples/echo.ts", root), "utf8");
    const readme = readFileSync(new URL("README.md", root), "utf8");
    expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
    expect(example.trimEnd().split("\n").length).toBeLessThan(25);
  });

  it("runs: streams the prompt back and ends the turn", async () => {
    const [a, b] = createInMemoryTransportPair();
    const handle = echoAgent.serve(a);
    const client = new ScriptedClient(b);
    cleanups.push(async () => {
      await client.close();
      await handle.close();
    });
    await client.initialize();
    const sessionId = await client.newSession();
    await client.prompt(sessionId, "hello acp world");
    await client.waitForIdles(1);
    const chunks = client.updates().filter((u) => u.sessionUpdate === "agent_message_chunk");
    expect(chunks.map((u) => u.content.text).join("")).toBe("hello acp world");
    expect(
      client
        .updates()
        .filter((u) => u.sessionUpdate === "tool_call_update")
        .at(-1),
    ).toMatchObject({
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: "3 words" } }],
    });
    expect(client.idles()).toEqual([{ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" }]);
  });
});
