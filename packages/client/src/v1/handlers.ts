/**
 * The requests a v1 agent sends that v2 has no counterpart for: the client's file system
 * (`fs/*`) and terminals (`terminal/*`). A client author registers typed handlers; only what is
 * registered is advertised in `initialize` (`fs.readTextFile`, `fs.writeTextFile`, and
 * `terminal` when all five terminal handlers are there), so a v1 agent never calls the rest.
 */
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

/** Wire method → handler name. */
export const V1_CLIENT_METHODS: Readonly<Record<string, keyof V1ClientHandlers>> = {
  "fs/read_text_file": "readTextFile",
  "fs/write_text_file": "writeTextFile",
  "terminal/create": "createTerminal",
  "terminal/output": "terminalOutput",
  "terminal/wait_for_exit": "waitForTerminalExit",
  "terminal/kill": "killTerminal",
  "terminal/release": "releaseTerminal",
};

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
  v2: { auth?: { terminal?: unknown } | null; elicitation?: unknown } | undefined,
): V1ClientCapabilities {
  const capabilities: V1ClientCapabilities = {
    fs: { readTextFile: handlers.readTextFile !== undefined, writeTextFile: handlers.writeTextFile !== undefined },
    terminal: TERMINAL_HANDLERS.every((name) => handlers[name] !== undefined),
  };
  if (v2?.auth?.terminal != null) capabilities.auth = { terminal: true };
  if (v2?.elicitation != null) capabilities.elicitation = v2.elicitation as V1ClientCapabilities["elicitation"];
  return capabilities;
}
