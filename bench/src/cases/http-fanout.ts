// Case http-fanout: 200 Streamable HTTP connections to one server, each running one prompt turn
// of 1,000 chunks at the same time (the full stacks of http-turn; see ./fanout.ts).
import { connectClient, type HttpStack, startServer } from "../full/http-spawn.js";
import { measureFanout } from "./fanout.js";
import { runSide } from "./side.js";

const measure = (stack: HttpStack) =>
  measureFanout({ startServer: () => startServer(stack), connectClient: (url) => connectClient(stack, url) });

await runSide({ ours: () => measure("ours"), sdk: () => measure("sdk") });
