/**
 * What a connection and a session are set up with, in both directions: auth methods (v1 `id`
 * and an untagged agent method, v2 `methodId` and always a `type`) and MCP servers (v1 stdio
 * untagged with required `args`/`env`, an `sse` transport v2 does not have).
 */
import type * as V2 from "../generated/types.js";
import type * as V1 from "../generated/v1/types.js";

/** v1 auth methods → v2 (`id` → `methodId`; the untagged agent method tagged `agent`). */
export function authMethodsToV2(methods: readonly V1.AuthMethod[] | undefined): V2.AuthMethod[] {
  return (methods ?? []).map((method): V2.AuthMethod => {
    // Only the terminal method carries a `type` in v1.
    if ("type" in method) {
      const { id, type, env, ...rest } = method;
      const terminal: V2.AuthMethod = { type, methodId: id, ...rest };
      // v1 spells the environment as a map, v2 as a list of variables.
      if (type === "terminal" && env !== undefined)
        terminal.env = Object.entries(env).map(([name, value]) => ({ name, value }));
      return terminal;
    }
    const { id, ...rest } = method;
    return { type: "agent", methodId: id, ...rest };
  });
}

/** v2 auth methods → v1 (`methodId` → `id`; the agent method untagged; extension methods left out). */
export function authMethodsToV1(methods: readonly V2.AuthMethod[] | undefined): V1.AuthMethod[] {
  return (methods ?? []).flatMap((method): V1.AuthMethod[] => {
    switch (method.type) {
      case "agent": {
        const { methodId, type: _type, ...rest } = method;
        return [{ id: methodId, ...rest }];
      }
      case "terminal": {
        const { methodId, env, ...rest } = method;
        const terminal: V1.AuthMethodTerminal & { type: "terminal" } = { id: methodId, ...rest };
        if (env !== undefined) terminal.env = Object.fromEntries(env.map((v) => [v.name, v.value]));
        return [terminal];
      }
      default:
        return [];
    }
  });
}

/** v2 MCP servers → v1 (stdio untagged with required `args`/`env`, http with required `headers`). */
export function mcpServersToV1(servers: readonly V2.McpServer[] | null | undefined): V1.McpServer[] {
  return (servers ?? []).flatMap((server): V1.McpServer[] => {
    switch (server.type) {
      case "stdio": {
        const { type: _type, args, env, ...rest } = server;
        return [{ ...rest, args: args ?? [], env: env ?? [] }];
      }
      case "http":
        return [{ ...server, headers: server.headers ?? [] }];
      default:
        return [];
    }
  });
}

/** v1 MCP servers → v2 (stdio tagged; `sse` has no v2 transport and is left out). */
export function mcpServersToV2(servers: readonly V1.McpServer[] | undefined): V2.McpServer[] {
  return (servers ?? []).flatMap((server): V2.McpServer[] => {
    if (!("type" in server)) return [{ type: "stdio", ...server }];
    return server.type === "http" ? [server] : [];
  });
}
