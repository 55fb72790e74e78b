// The official SDK's side of the streaming workload, shared by the stdio and WebSocket benchmarks:
// a v2 agent app that answers `initialize` and streams `count` chunks for one STREAM_METHOD request.
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { chunkUpdate, initializeResult, STREAM_METHOD } from "./stream-workload.js";

/** `afterStream` runs once the chunks are sent, before the answer (e.g. to report peak RSS). */
export function sdkStreamingAgent(afterStream: () => void = () => {}) {
  return acp
    .agent()
    .onRequest("initialize", () => initializeResult as acp.InitializeResponse)
    .onRequest(
      STREAM_METHOD,
      (params: unknown) => params as { count: number },
      async ({ params, client }) => {
        for (let i = 0; i < params.count; i++)
          await client.notify("session/update", chunkUpdate(i) as acp.UpdateSessionNotification);
        afterStream();
        return { sent: params.count };
      },
    );
}
