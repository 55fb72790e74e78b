/** The built sample agent serving Streamable HTTP (`--http`), for the fleet tests. */
import { sampleAgentCommand } from "./agents.js";
import { startProcess, type TestProcess } from "./processes.js";

export interface HttpAgent {
  process: TestProcess;
  /** `http://127.0.0.1:<port>/acp` */
  url: string;
  port: number;
}

/** The `listening on http://… port=N` line the sample agent prints on stderr. */
export const HTTP_LISTENING_LINE = /listening on (http:\/\/\S+) port=(\d+)/;

/** Starts the built sample agent with `--http 127.0.0.1:0` (any free port) and `extraArgs`. */
export async function startSampleHttpAgent(extraArgs: readonly string[] = []): Promise<HttpAgent> {
  const [command, args] = sampleAgentCommand(["--http", "127.0.0.1:0", ...extraArgs]);
  const child = startProcess(command, args);
  const match = await child.waitForLine(HTTP_LISTENING_LINE, { stream: "stderr", timeoutMs: 15_000 });
  return { process: child, url: match[1] as string, port: Number(match[2]) };
}

/** Whether the agent's `--verbose` log names connection `connectionId` (it accepted it). */
export function servedConnection(agent: HttpAgent, connectionId: string | undefined): boolean {
  return connectionId !== undefined && agent.process.stderr().includes(`connection ${connectionId} over`);
}
