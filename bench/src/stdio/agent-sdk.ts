// Benchmark agent: the official SDK (v2 agent app over ndJsonStream on Node's stdio).
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { sdkStreamingAgent } from "../shared/stream-agents.js";
import { reportPeakRss } from "./shared.js";

const stream = acp.ndJsonStream(
  Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
  Readable.toWeb(process.stdin) as unknown as ReadableStream<Uint8Array>,
);
sdkStreamingAgent(reportPeakRss).connect(stream);
