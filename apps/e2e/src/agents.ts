/** Starting the agents under test: the built sample agent (stdio or WebSocket) and the SDK fixture. */
import { SAMPLE_AGENT_BIN, SDK_AGENT_FIXTURE, SDK_V1_AGENT_FIXTURE, TSX_BIN } from "./paths.js";
import { startProcess, type TestProcess } from "./processes.js";

/** The command line that runs the built sample agent over stdio. */
export function sampleAgentCommand(extraArgs: readonly string[] = []): [string, string[]] {
  return [process.execPath, [SAMPLE_AGENT_BIN, "--pace", "0", ...extraArgs]];
}

/** The command line that runs the official-SDK agent fixture over stdio. */
export function sdkAgentCommand(extraArgs: readonly string[] = []): [string, string[]] {
  return [TSX_BIN, [SDK_AGENT_FIXTURE, ...extraArgs]];
}

export interface WsAgent {
  process: TestProcess;
  /** `ws://127.0.0.1:<port>/acp` */
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** Parses the `listening on ws://… port=N` line both WebSocket agents print on stderr. */
export const LISTENING_LINE = /listening on (ws:\/\/\S+) port=(\d+)/;

async function startListening(command: string, args: string[]): Promise<WsAgent> {
  const child = startProcess(command, args);
  const match = await child.waitForLine(LISTENING_LINE, { stream: "stderr", timeoutMs: 15_000 });
  return { process: child, url: match[1] as string, port: Number(match[2]), stop: () => child.stop() };
}

/** The built sample agent serving WebSocket on an ephemeral port. */
export function startSampleWsAgent(extraArgs: readonly string[] = []): Promise<WsAgent> {
  const [command, args] = sampleAgentCommand(["--ws", "127.0.0.1:0", ...extraArgs]);
  return startListening(command, args);
}

/** The official-SDK agent fixture serving WebSocket on an ephemeral port. */
export function startSdkWsAgent(): Promise<WsAgent> {
  const [command, args] = sdkAgentCommand(["--ws", "127.0.0.1:0"]);
  return startListening(command, args);
}

/** The command line that runs the official-SDK v1 agent fixture over stdio. */
export function sdkV1AgentCommand(extraArgs: readonly string[] = []): [string, string[]] {
  return [TSX_BIN, [SDK_V1_AGENT_FIXTURE, ...extraArgs]];
}

/** The official-SDK v1 agent fixture serving WebSocket on an ephemeral port. */
export function startSdkV1WsAgent(): Promise<WsAgent> {
  const [command, args] = sdkV1AgentCommand(["--ws", "127.0.0.1:0"]);
  return startListening(command, args);
}
