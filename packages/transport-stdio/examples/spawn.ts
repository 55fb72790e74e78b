// The client process: spawns examples/agent-process.ts and talks to it over its stdio.
// Run: tsx packages/transport-stdio/examples/spawn.ts
import { fileURLToPath } from "node:url";
import { Connection } from "@acp-kit/protocol/jsonrpc";
import { spawnAgent } from "@acp-kit/transport-stdio";

const script = fileURLToPath(new URL("agent-process.ts", import.meta.url));
const agent = spawnAgent(process.execPath, ["--import", "tsx", script], { stderr: "inherit" });
const connection = new Connection(agent.transport); // or connectToAgent(agent.transport, ...)
connection.listen();
console.log(await connection.request("demo/ping", {}));
const exit = await agent.shutdown(); // closes stdin, waits, then escalates to SIGTERM / SIGKILL
console.log("agent exited with", exit);
