/**
 * The requests a v1 agent sends that v2 has no counterpart for: the client's file system
 * (`fs/*`) and terminals (`terminal/*`). A client author registers typed handlers; only what is
 * registered is advertised in `initialize` (`fs.readTextFile`, `fs.writeTextFile`, and
 * `terminal` when all five terminal handlers are there), so a v1 agent never calls the rest.
 */
import type { ClientCapabilities } from "@acp-kit/protocol/types";
import {
  type CreateTerminalRequest,
  type CreateTerminalResponse,
  type DecodeError,
  type DecodeResult,
  type KillTerminalRequest,
  type KillTerminalResponse,
  type ReadTextFileRequest,
  type ReadTextFileResponse,
  type ReleaseTerminalRequest,
  type ReleaseTerminalResponse,
  type TerminalOutputRequest,
  type TerminalOutputResponse,
  type ClientCapabilities as V1ClientCapabilities,
  decoders as v1Decoders,
  type WaitForTerminalExitRequest,
  type WaitForTerminalExitResponse,
  type WriteTextFileRequest,
  type WriteTextFileResponse,
} from "@acp-kit/protocol/v1";

/** What a v1 client-method handler gets besides the params. */
export interface V1RequestContext {
  /** Aborted when the agent cancels the request (`$/cancel_request`) or the connection closes. */
  readonly signal: AbortSignal;
}

type Handler<P, R> = (params: P, context: V1RequestContext) => R | Promise<R>;

/** Handlers for the client methods only v1 agents call. Each is optional. */
export interface V1ClientHandlers {
  readTextFile?: Handler<ReadTextFileRequest, ReadTextFileResponse>;
  writeTextFile?: Handler<WriteTextFileRequest, WriteTextFileResponse>;
  createTerminal?: Handler<CreateTerminalRequest, CreateTerminalResponse>;
  terminalOutput?: Handler<TerminalOutputRequest, TerminalOutputResponse>;
  waitForTerminalExit?: Handler<WaitForTerminalExitRequest, WaitForTerminalExitResponse>;
  killTerminal?: Handler<KillTerminalRequest, KillTerminalResponse>;
  releaseTerminal?: Handler<ReleaseTerminalRequest, ReleaseTerminalResponse>;
}

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

const TERMINAL_HANDLERS = [
  "createTerminal",
  "terminalOutput",
  "waitForTerminalExit",
  "killTerminal",
  "releaseTerminal",
] as const;

/** The v1 `clientCapabilities` for what is registered, plus what the v2 capabilities say. */
export function v1ClientCapabilities(
  handlers: V1ClientHandlers,
  v2: ClientCapabilities | undefined,
): V1ClientCapabilities {
  const capabilities: V1ClientCapabilities = {
    fs: { readTextFile: handlers.readTextFile !== undefined, writeTextFile: handlers.writeTextFile !== undefined },
    terminal: TERMINAL_HANDLERS.every((name) => handlers[name] !== undefined),
  };
  if (v2?.auth?.terminal != null) capabilities.auth = { terminal: true };
  if (v2?.elicitation != null) capabilities.elicitation = v2.elicitation;
  return capabilities;
}
