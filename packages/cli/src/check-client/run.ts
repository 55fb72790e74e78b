/** `acp-kit check client`: each scenario starts the client afresh against a scripted agent. */
import { is, ScriptedAgent } from "@acp-kit/testkit";
import { buildReport, type Report, RowSink } from "../report.js";
import { type AgentHost, stdioAgentHost, wsAgentHost } from "./agent-host.js";
import { CHECK_AGENT_INITIALIZE, judgeClientBasics } from "./client-judge.js";
import { fillPlaceholders, startClient } from "./client-process.js";
import { CLIENT_SCENARIOS } from "./scenarios.js";

export interface CheckClientOptions {
  /** The client's command line, with `{agent}` (and `{token}` for WebSocket). */
  command: string[];
  ws: boolean;
  cwd: string;
  turnTimeoutMs: number;
  cancelSignal: NodeJS.Signals;
  /** How long the client may take to exit after its turn (default 3 s). */
  exitGraceMs?: number;
  only?: string[];
}

export async function checkClient(options: CheckClientOptions, onScenario?: (name: string) => void): Promise<Report> {
  const host: AgentHost = options.ws ? await wsAgentHost() : await stdioAgentHost();
  const rows: RowSink["rows"] = [];
  let peer: unknown;
  try {
    for (const scenario of CLIENT_SCENARIOS) {
      if (options.only && !options.only.includes(scenario.name)) continue;
      onScenario?.(scenario.name);
      const sink = new RowSink(scenario.name);
      const argv = fillPlaceholders(options.command, host.placeholders());
      const client = startClient(argv, options.cwd);
      const transport = await Promise.race([host.nextConnection(15_000), client.exited.then(() => undefined)]);
      if (transport === undefined) {
        sink.add("client.connects", "MANDATORY", "the client starts the agent it is given and connects", false, [
          client.exitStatus() === undefined
            ? "no connection within 15 s"
            : `the client exited with ${client.exitStatus()} first`,
          ...client
            .stderrTail()
            .slice(-4)
            .map((l) => `client stderr: ${l}`),
        ]);
        await client.stop();
        rows.push(...sink.rows);
        continue;
      }
      const agent = new ScriptedAgent(transport, { initialize: CHECK_AGENT_INITIALIZE, ...scenario.script }).listen();
      const ctx = {
        agent,
        client,
        rows: sink,
        options: { turnTimeoutMs: options.turnTimeoutMs, cancelSignal: options.cancelSignal },
      };
      const driving = scenario.drive?.(ctx);
      await Promise.race([
        agent.log.waitFor((e) => e.from === "agent" && is.state("idle")(e), { timeoutMs: options.turnTimeoutMs }),
        client.exited,
      ]);
      await driving;
      // Give the client time to act on the end of the turn, and to exit if it is one-shot.
      await Promise.race([client.exited, new Promise((r) => setTimeout(r, options.exitGraceMs ?? 3_000))]);
      judgeClientBasics(agent.log, sink);
      scenario.judge(ctx);
      if (peer === undefined) {
        const init = agent.log.find((e) => e.from === "client" && is.request("initialize")(e));
        peer = (init?.message as { params?: { info?: unknown } } | undefined)?.params?.info;
      }
      await client.stop();
      await agent.close();
      rows.push(...sink.rows);
    }
  } finally {
    await host.close();
  }
  return buildReport("client", options.command.join(" "), rows, peer);
}
