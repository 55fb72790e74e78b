/**
 * `acp-kit check client`: each scenario starts the client afresh against a scripted agent that
 * negotiates as a real one (1 for a client asking 1, else 2) and plays that version's script.
 */
import { type AgentScript, is, ScriptedAgent } from "@acp-kit/testkit";
import { stderrExcerpt } from "../evidence.js";
import { buildReport, type ProtocolVersion, type Report, RowSink } from "../report.js";
import { type AgentHost, stdioAgentHost, wsAgentHost } from "./agent-host.js";
import { checkAgentInitialize, judgeClientBasics, negotiatedVersion } from "./client-judge.js";
import { fillPlaceholders, startClient } from "./client-process.js";
import {
  basicScenario,
  CLIENT_SCENARIOS,
  type ClientScenario,
  type ClientScenarioContext,
  turnEnd,
} from "./scenarios.js";

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
  /** The version the client negotiated in an earlier scenario. */
  let known: ProtocolVersion | undefined;
  try {
    for (const scenario of CLIENT_SCENARIOS) {
      if (options.only && !options.only.includes(scenario.name)) continue;
      onScenario?.(scenario.name);
      const sink = new RowSink(scenario.name);
      if (known !== undefined && scenario.scripts[known] === undefined) {
        skipScenario(sink, scenario, known);
        rows.push(...sink.rows);
        continue;
      }
      const argv = fillPlaceholders(options.command, host.placeholders());
      const client = startClient(argv, options.cwd);
      const transport = await Promise.race([host.nextConnection(15_000), client.exited.then(() => undefined)]);
      if (transport === undefined) {
        sink.add("client.connects", "MANDATORY", "the client starts the agent it is given and connects", false, [
          client.exitStatus() === undefined
            ? "no connection within 15 s"
            : `the client exited with ${client.exitStatus()} first`,
          ...stderrExcerpt(client.stderrTail()).map((l) => `client stderr: ${l}`),
        ]);
        await client.stop();
        rows.push(...sink.rows);
        continue;
      }
      // The script is read when the client's requests arrive: by then its initialize told the version.
      let agent: ScriptedAgent | undefined;
      const version = (): ProtocolVersion => (agent && negotiatedVersion(agent.log)) ?? 2;
      const script: AgentScript = {
        get initialize() {
          return checkAgentInitialize(version());
        },
        // The session methods the advertisement allows, answered in both versions' shape.
        answers: { "session/list": { sessions: [] }, "session/close": {} },
        get prompts() {
          // A scenario of the other version only still plays an ordinary turn, to be skipped after.
          return (scenario.scripts[version()] ?? (basicScenario.scripts[version()] as AgentScript)).prompts;
        },
      };
      agent = new ScriptedAgent(transport, script).listen();
      const ctx: ClientScenarioContext = {
        agent,
        client,
        rows: sink,
        version: 2,
        options: { turnTimeoutMs: options.turnTimeoutMs, cancelSignal: options.cancelSignal },
      };
      const driving = scenario.drive?.(ctx);
      const log = agent.log;
      await Promise.race([
        log.waitFor((e) => turnEnd(log, version())(e), { timeoutMs: options.turnTimeoutMs }),
        client.exited,
      ]);
      await driving;
      // Give the client time to act on the end of the turn, and to exit if it is one-shot.
      await Promise.race([client.exited, new Promise((r) => setTimeout(r, options.exitGraceMs ?? 3_000))]);
      const negotiated = negotiatedVersion(log);
      if (negotiated !== undefined) {
        known = negotiated;
        sink.version = negotiated;
        ctx.version = negotiated;
      }
      judgeClientBasics(log, sink, ctx.version);
      if (scenario.scripts[ctx.version] === undefined) skipScenario(sink, scenario, ctx.version);
      else scenario.judge(ctx);
      if (peer === undefined) {
        const init = log.find((e) => e.from === "client" && is.request("initialize")(e));
        const params = (init?.message as { params?: { info?: unknown; clientInfo?: unknown } } | undefined)?.params;
        peer = ctx.version === 1 ? params?.clientInfo : params?.info;
      }
      await client.stop();
      await agent.close();
      rows.push(...sink.rows);
    }
  } finally {
    await host.close();
  }
  return buildReport("client", options.command.join(" "), rows, peer, known);
}

/** The rows of a scenario that exists in the other version only, skipped saying why. */
function skipScenario(sink: RowSink, scenario: ClientScenario, version: ProtocolVersion): void {
  const other: ProtocolVersion = version === 1 ? 2 : 1;
  for (const [id, title] of scenario.onlyIn?.rows ?? [])
    sink.onlyIn(other, id, "MANDATORY", title, scenario.onlyIn?.why ?? "");
}
