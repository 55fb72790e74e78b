// Our schema-agnostic Connection against the official SDK's v2 apps, through the stream
// adapters: an initialize round trip in both directions, plus cancellation and errors.

import {
  Connection,
  createInMemoryTransportPair,
  type JsonRpcMessageStream,
  RequestError,
  streamFromTransport,
} from "@acp-kit/protocol/jsonrpc";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { afterEach, describe, expect, it } from "vitest";

const info = { name: "interop-test", version: "1.0.0" };
const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function sdkStream(stream: JsonRpcMessageStream): acp.Stream {
  return stream as unknown as acp.Stream;
}

describe("our Connection (client role) <-> SDK agent app", () => {
  it("initializes, then gets the SDK's errors for unknown methods", async () => {
    const [ours, theirs] = createInMemoryTransportPair();
    const agentApp = acp.agent({ name: "sdk-agent" }).onRequest("initialize", ({ params }) => ({
      protocolVersion: Math.min(params.protocolVersion, 2),
      info: { name: "sdk-agent", version: "2.4.0" },
    }));
    const sdkConnection = agentApp.connect(sdkStream(streamFromTransport(theirs)));
    const client = new Connection(ours);
    client.listen();
    cleanups.push(
      () => client.close(),
      () => sdkConnection.close(),
    );

    const result = await client.request("initialize", { protocolVersion: 2, info, capabilities: {} });
    expect(result).toMatchObject({ protocolVersion: 2, info: { name: "sdk-agent" } });

    const error = await client.request("session/nonexistent", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).code).toBe(-32601);
  });
});

describe("SDK client app <-> our Connection (agent role)", () => {
  it("answers the SDK's initialize and serves a cancelled request with -32800", async () => {
    const [ours, theirs] = createInMemoryTransportPair();
    const agent = new Connection(ours);
    const seen: unknown[] = [];
    agent.onRequest("initialize", (params: { protocolVersion: number }) => {
      seen.push(params);
      return { protocolVersion: 2, info: { name: "acp-kit-agent", version: "0.0.0" }, capabilities: {} };
    });
    let cancelledWith: unknown;
    let listed!: () => void;
    const listing = new Promise<void>((resolve) => (listed = resolve));
    agent.onRequest("session/list", (_params, ctx) => {
      listed();
      return new Promise((_resolve, reject) =>
        ctx.signal.addEventListener("abort", () => {
          cancelledWith = ctx.signal.reason;
          reject(new Error("stopped"));
        }),
      );
    });
    agent.listen();
    cleanups.push(() => agent.close());

    const outcome = await acp
      .client({ name: "sdk-client" })
      .connectWith(sdkStream(streamFromTransport(theirs)), async (ctx) => {
        const init = await ctx.request("initialize", { protocolVersion: 2, info });
        const controller = new AbortController();
        const list = ctx.request("session/list", {}, { cancellationSignal: controller.signal });
        await listing; // our handler is running
        controller.abort();
        const listError = await list.catch((e: unknown) => e);
        return { init, listError };
      });

    expect(seen).toEqual([{ protocolVersion: 2, info }]);
    expect(outcome.init).toMatchObject({ protocolVersion: 2, info: { name: "acp-kit-agent" } });
    expect(outcome.listError).toMatchObject({ code: -32800 });
    expect(cancelledWith).toMatchObject({ code: -32800 });
  });
});
