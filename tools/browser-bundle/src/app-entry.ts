// A browser app as users write it: a page script that connects the client over the browser
// WebSocket transport when it loads (it exports nothing, as an app's entry does).
import { connectToAgent } from "@acp-kit/client";
import { connectWebSocket } from "@acp-kit/transport-ws";

async function start(url: string): Promise<void> {
  const transport = await connectWebSocket(url);
  const client = await connectToAgent(transport, { info: { name: "browser-app", version: "1.0.0" } });
  const session = await client.newSession({ cwd: "/" });
  const turn = session.prompt("Hello");
  for await (const update of turn) console.log(update.sessionUpdate);
  await client.close();
}

void start(new URL("/acp", location.href).href.replace(/^http/, "ws"));
