// Benchmark agent process: the official SDK over stdio (v2 `agent()` app over `ndJsonStream`).
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { sdkPromptAgent } from "./sdk-agent.js";
import { reportPeakRss } from "./workload.js";

const stream = acp.ndJsonStream(
  Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
  Readable.toWeb(process.stdin) as unknown as ReadableStream<Uint8Array>,
);
sdkPromptAgent(reportPeakRss).connect(stream);
