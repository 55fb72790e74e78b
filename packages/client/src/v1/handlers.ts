/**
 * The requests a v1 agent sends that v2 has no counterpart for: the client's file system
 * (`fs/*`) and terminals (`terminal/*`). A client author registers typed handlers
 * (client-handlers.ts); only what is registered is advertised in `initialize` (`fs.readTextFile`,
 * `fs.writeTextFile`, and `terminal` when all five terminal handlers are there), so a v1 agent
 * never calls the rest. Here each registered handler is bound to its method's decoder.
 */
import { type DecodeError, type DecodeResult, decoders as v1Decoders } from "@acp-kit/protocol/v1";
import type { Handler, V1ClientHandlers, V1RequestContext } from "./client-handlers.js";

/** One v1-only request, its params decoded: the session it is about and the call of its handler. */
export type V1ClientCall =
  | { ok: true; sessionId: string; run: (context: V1RequestContext) => Promise<unknown> }
  | { ok: false; error: DecodeError };

/** A registered handler bound to its method's decoder; null when none is registered. */
export type V1ClientMethod = ((params: unknown) => V1ClientCall) | null;

function bind<P extends { sessionId: string }, R>(
  decode: (value: unknown) => DecodeResult<P>,
  handler: Handler<P, R> | undefined,
): V1ClientMethod {
  if (handler === undefined) return null;
  return (params) => {
    const decoded = decode(params);
    if (!decoded.ok) return decoded;
    const { value } = decoded;
    return { ok: true, sessionId: value.sessionId, run: async (context) => handler(value, context) };
  };
}

/** The handling of a wire method only v1 agents call; undefined for any other method. */
export function v1ClientMethod(handlers: V1ClientHandlers, method: string): V1ClientMethod | undefined {
  switch (method) {
    case "fs/read_text_file":
      return bind(v1Decoders[method].params, handlers.readTextFile);
    case "fs/write_text_file":
      return bind(v1Decoders[method].params, handlers.writeTextFile);
    case "terminal/create":
      return bind(v1Decoders[method].params, handlers.createTerminal);
    case "terminal/output":
      return bind(v1Decoders[method].params, handlers.terminalOutput);
    case "terminal/wait_for_exit":
      return bind(v1Decoders[method].params, handlers.waitForTerminalExit);
    case "terminal/kill":
      return bind(v1Decoders[method].params, handlers.killTerminal);
    case "terminal/release":
      return bind(v1Decoders[method].params, handlers.releaseTerminal);
    default:
      return undefined;
  }
}
