import { connectToAgent, selectPermissionOption, textOf } from "@acp-kit/client";
import { spawnAgent } from "@acp-kit/transport-stdio";

const [command, ...args] = process.argv.slice(2);
try {
  if (!command) throw new Error("usage: tsx packages/client/examples/hello.ts <agent command> [args...]");
  await using agent = spawnAgent(command, args, { stderr: "inherit" }); // shut down when the block is left
  const client = await connectToAgent(agent.transport, {
    info: { name: "hello-client", version: "1.0.0" },
    handlers: { requestPermission: (request) => selectPermissionOption(request, "allow_once") },
  });
  const turn = (await client.newSession({ cwd: process.cwd() })).prompt("Say hello in five words.");
  for await (const update of turn) {
    if (update.sessionUpdate === "agent_message_chunk") process.stdout.write(textOf([update.content]));
  }
  console.log(`\n[stop reason: ${(await turn.done).stopReason ?? "not reported"}]`);
} catch (error) {
  console.error(`hello: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
}
