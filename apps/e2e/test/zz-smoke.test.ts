import { test, expect } from "vitest";
import { connectToAgent } from "@acp-kit/client";
import { spawnAgent } from "@acp-kit/transport-stdio";
import { TSX_BIN } from "../src/paths.js";
test("smoke", async () => {
  const agent = spawnAgent(TSX_BIN, ["fixtures/sdk-v1-agent.ts"], { stderr: "inherit" });
  const client = await connectToAgent(agent.transport, {
    info: { name: "smoke", version: "0" },
    handlers: { requestPermission: (r) => { console.log("PERM", JSON.stringify(r)); return { outcome: { outcome: "selected", optionId: "allow" } }; } },
    logger: { warn: (...a: unknown[]) => console.log("WARN", ...a), error: (...a: unknown[]) => console.log("ERR", ...a) },
  });
  console.log("version", client.protocolVersion, JSON.stringify(client.agentCapabilities), JSON.stringify(client.agentInfo));
  const session = await client.newSession({ cwd: "/tmp" });
  console.log("opts", JSON.stringify(session.store.getSnapshot().configOptions));
  const turn = session.prompt("hello");
  for await (const u of turn) console.log("U", JSON.stringify(u));
  console.log("DONE", JSON.stringify(await turn.done));
  const snap = session.store.getSnapshot();
  console.log("TIMELINE", JSON.stringify(snap.timeline.map((e: any) => e.type + ":" + (e.kind ?? "") + ":" + (e.messageId ?? e.toolCallId ?? ""))));
  await session.setConfigOption("mode", "code");
  console.log("opts2", JSON.stringify(session.store.getSnapshot().configOptions.map((o: any) => o.currentValue)));
  const c = session.prompt("/slow");
  let n = 0;
  for await (const u of c) { if (++n === 3) await c.cancel(); }
  console.log("CANCEL", JSON.stringify(await c.done));
  const client2 = client;
  const resumed = await client2.resumeSession(session.sessionId, { cwd: "/tmp", replay: true });
  console.log("RESUMED", resumed.store.getSnapshot().timeline.length);
  await client.close(); await agent.shutdown();
}, 30000);
