/**
 * The v1-only client handlers a client author registers (`fs/*`, `terminal/*`) and the v1
 * `clientCapabilities` they make. Kept apart from their decoding (handlers.ts) so that the
 * negotiation, which every client loads, does not load the v1 decoders: they come with the v1
 * adapter's own chunk, only when an agent answers protocol version 1.
 */
import type { ClientCapabilities } from "@acp-kit/protocol/types";
import type {
  CreateTerminalRequest,
  CreateTerminalResponse,
  KillTerminalRequest,
  KillTerminalResponse,
  ReadTextFileRequest,
  ReadTextFileResponse,
  ReleaseTerminalRequest,
  ReleaseTerminalResponse,
  TerminalOutputRequest,
  TerminalOutputResponse,
  ClientCapabilities as V1ClientCapabilities,
  WaitForTerminalExitRequest,
  WaitForTerminalExitResponse,
  WriteTextFileRequest,
  WriteTextFileResponse,
} from "@acp-kit/protocol/v1";

/** What a v1 client-method handler gets besides the params. */
export interface V1RequestContext {
  /** Aborted when the agent cancels the request (`$/cancel_request`) or the connection closes. */
  readonly signal: AbortSignal;
}

export type Handler<P, R> = (params: P, context: V1RequestContext) => R | Promise<R>;

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
