// Case ws-fanout: 200 WebSocket connections to one server, each running one prompt turn of 1,000
// chunks at the same time (the same full stacks as ws-turn; see ./fanout.ts).
import { connectClient, startServer, type WsStack } from "../full/ws-spawn.js";
import { measureFanout } from "./fanout.js";
import { runSide } from "./side.js";

const measure = (stack: WsStack) =>
  measureFanout({ startServer: () => startServer(stack), connectClient: (url) => connectClient(stack, url) });

await runSide({ ours: () => measure("ours"), sdk: () => measure("sdk") });
