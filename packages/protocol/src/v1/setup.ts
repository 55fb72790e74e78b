/**
 * What a connection and a session are set up with, in both directions: auth methods (v1 `id`
 * and an untagged agent method, v2 `methodId` and always a `type`; terminal launches announced
 * in v1 `_meta`) and MCP servers (v1 stdio
 * untagged with required `args`/`env`, an `sse` transport v2 does not have).
 */
import type * as V2 from "../generated/types.js";
import type * as V1 from "../generated/v1/types.js";

const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === "string");

/** v1 spells a terminal method's environment as a map, v2 as a list of variables. */
function envToV2(env: unknown): V2.EnvVariable[] | undefined {
  if (typeof env !== "object" || env === null || Array.isArray(env)) return undefined;
  const entries = Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === "string");
  return entries.map(([name, value]) => ({ name, value }));
}

/**
 * The terminal launch a v1 method without `type` announces in `_meta`, by the conventions
 * shipped before v1 had terminal methods: `_meta: { type: "terminal", args, env }` (qwen-code:
 * the agent's own command with `args` appended, as a v2 terminal method runs it), or
 * `_meta["terminal-auth"]: { command, args, env, label }` (Zed's convention, GitHub Copilot: a
 * command line of its own, which stays in `_meta` for a client to run; v2 has no field for it).
 */
function terminalLaunchOf(
  meta: { [k: string]: unknown } | null | undefined,
): { args?: string[]; env?: V2.EnvVariable[] } | undefined {
  if (meta == null) return undefined;
  if (meta.type === "terminal") {
    const launch: { args?: string[]; env?: V2.EnvVariable[] } = {};
    if (isStringList(meta.args)) launch.args = meta.args;
    const env = envToV2(meta.env);
    if (env !== undefined) launch.env = env;
    return launch;
  }
  const terminalAuth = meta["terminal-auth"];
  if (typeof terminalAuth === "object" && terminalAuth !== null && !Array.isArray(terminalAuth)) return {};
  return undefined;
}

/**
 * v1 auth methods → v2 (`id` → `methodId`; the untagged agent method tagged `agent`, or
 * `terminal` when its `_meta` announces a terminal launch, see `terminalLaunchOf`).
 */
export function authMethodsToV2(methods: readonly V1.AuthMethod[] | undefined): V2.AuthMethod[] {
  return (methods ?? []).map((method): V2.AuthMethod => {
    // Only the terminal method carries a `type` in v1.
    if ("type" in method) {
      const { id, type, env, ...rest } = method;
      const terminal: V2.AuthMethod = { type, methodId: id, ...rest };
      if (type === "terminal" && env !== undefined) terminal.env = envToV2(env) ?? [];
      return terminal;
    }
    const { id, ...rest } = method;
    const launch = terminalLaunchOf(method._meta);
    if (launch !== undefined) return { type: "terminal", methodId: id, ...rest, ...launch };
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
