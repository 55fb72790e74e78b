// The client side of the streaming benchmarks (stdio, WebSocket): one connection that asks the
// agent to stream `n` session updates and counts them, on our Connection or on the official SDK.
import { Connection, type Transport } from "@acp-kit/protocol/jsonrpc";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { STREAM_METHOD } from "./stream-workload.js";

/** Each runner streams `n` updates and resolves once all of them and the response arrived. */
export type Runner = { stream(n: number): Promise<void>; close(): Promise<void> };

/** Our Connection over `transport`, initialized with `initialize`. */
export async function oursStreamClient(
  transport: Transport,
  initialize: unknown,
): Promise<{ connection: Connection; stream(n: number): Promise<void> }> {
  const connection = new Connection(transport);
  let received = 0;
  connection.onNotification("session/update", () => {
    received++;
  });
  connection.listen();
  await connection.request("initialize", initialize);
  return {
    connection,
    async stream(n) {
      received = 0;
      await connection.request(STREAM_METHOD, { count: n });
      if (received !== n) throw new Error(`ours: received ${received} of ${n} updates`);
    },
  };
}

/** The SDK's v2 client app over `stream`, initialized with `initialize`. */
export async function sdkStreamClient(
  stream: acp.Stream,
  initialize: acp.InitializeRequest,
): Promise<{ connection: acp.ClientConnection; stream(n: number): Promise<void> }> {
  let received = 0;
  const connection = acp
    .client()
    .onNotification("session/update", () => {
      received++;
    })
    .connect(stream);
  const context = connection.agent;
  await context.request("initialize", initialize);
  return {
    connection,
    async stream(n) {
      received = 0;
      await context.request<{ sent: number }>(STREAM_METHOD, { count: n });
      // The SDK may hand notifications to handlers after the response: wait for the last ones.
      while (received < n) await new Promise((resolve) => setImmediate(resolve));
    },
  };
}
