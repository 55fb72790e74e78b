import { describe, expectTypeOf, it } from "vitest";
import type {
  InitializeResponse,
  ListSessionsResponse,
  RequestPermissionResponse,
  UpdateSessionNotification,
} from "../generated/types.js";
import type { InMemoryTransport } from "../jsonrpc/in-memory-transport.js";
import { type AcpConnection, createAgentSideConnection, createClientSideConnection } from "./acp-connection.js";
import type { SentNotifications, SentRequests } from "./sides.js";

declare const transport: InMemoryTransport;
const agent = createAgentSideConnection(transport);
const client = createClientSideConnection(transport);

describe("AcpConnection types", () => {
  it("types requests by wire name and side", () => {
    expectTypeOf(client.request("initialize", { protocolVersion: 2, info: { name: "c", version: "1" } })).toEqualTypeOf<
      Promise<InitializeResponse>
    >();
    expectTypeOf(client.request("session/list", {})).toEqualTypeOf<Promise<ListSessionsResponse>>();
    expectTypeOf<keyof SentRequests<"agent">>().toEqualTypeOf<"elicitation/create" | "session/request_permission">();
    // @ts-expect-error the agent does not send initialize
    void agent.request("initialize", { protocolVersion: 2, info: { name: "a", version: "1" } });
    // @ts-expect-error params are checked
    void client.request("session/list", { cwd: 5 });
  });

  it("types handlers and their context", () => {
    agent.onRequest("initialize", (params, ctx) => {
      expectTypeOf(params.protocolVersion).toEqualTypeOf<number>();
      expectTypeOf(ctx.connection).toEqualTypeOf<AcpConnection<"agent">>();
      return { protocolVersion: 2, info: { name: "a", version: "1" } };
    });
    client.onRequest(
      "session/request_permission",
      async (): Promise<RequestPermissionResponse> => ({ outcome: { outcome: "cancelled" } }),
    );
    client.onNotification("session/update", (params) => {
      expectTypeOf(params).toEqualTypeOf<UpdateSessionNotification>();
    });
    // @ts-expect-error the client does not handle initialize
    client.onRequest("initialize", () => ({ protocolVersion: 2, info: { name: "a", version: "1" } }));
    // @ts-expect-error a handler must return the method's result type
    agent.onRequest("session/list", () => ({ sessions: "none" }));
  });

  it("types notifications and extensions", () => {
    expectTypeOf<keyof SentNotifications<"agent">>().toEqualTypeOf<"elicitation/complete" | "session/update">();
    expectTypeOf<keyof SentNotifications<"client">>().toEqualTypeOf<"session/cancel">();
    // @ts-expect-error the client does not send session/update
    void client.notify("session/update", { sessionId: "s", update: { sessionUpdate: "_x" } });
    expectTypeOf(client.requestExt<{ ok: boolean }>("_acme/thing")).toEqualTypeOf<Promise<{ ok: boolean }>>();
    // @ts-expect-error extension methods start with "_"
    void client.requestExt("acme/thing");
  });

  it("exposes no way around it: the JSON-RPC connection underneath is private", () => {
    // @ts-expect-error the raw connection is not part of the typed connection's interface
    void client.connection;
  });
});
