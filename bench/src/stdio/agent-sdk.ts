// Benchmark agent: the official SDK (v2 agent app over ndJsonStream on Node's stdio).
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { chunkUpdate, initializeResult, reportPeakRss, STREAM_METHOD } from "./shared.js";

const stream = acp.ndJsonStream(
  Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
  Readable.toWeb(process.stdin) as unknown as ReadableStream<Uint8Array>,
);
acp
  .agent()
  .onRequest("initialize", () => initializeResult as acp.InitializeResponse)
  .onRequest(
    STREAM_METHOD,
    (params: unknown) => params as { count: number },
    async ({ params, client }) => {
      for (let i = 0; i < params.count; i++)
        await client.notify("session/update", chunkUpdate(i) as acp.UpdateSessionNotification);
      reportPeakRss();
      return { sent: params.count };
    },
  )
  .connect(stream);
