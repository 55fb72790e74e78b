/** `acp-kit check agent`: every scenario against a fresh agent, one report. */
import { ScriptedClient } from "@acp-kit/testkit";
import { describeTarget, openAgent } from "../agent-target.js";
import { describeError, stderrExcerpt } from "../evidence.js";
import { buildReport, type ProtocolVersion, type Report, RowSink } from "../report.js";
import type { CheckAgentOptions } from "./options.js";
import { AuthRequired, SCENARIOS, type ScenarioContext } from "./scenarios.js";

export async function checkAgent(options: CheckAgentOptions, onScenario?: (name: string) => void): Promise<Report> {
  const rows: RowSink["rows"] = [];
  let peer: unknown;
  let protocolVersion: ProtocolVersion | undefined;
  if (options.target.command === undefined) {
    const note = new RowSink("setup");
    note.add("setup.fresh-agent", "INFO", "a fresh agent per scenario", "skip", [
      "only a URL was given: every scenario talks to the same running agent (give the command too for fresh processes)",
    ]);
    rows.push(...note.rows);
  }
  for (const scenario of SCENARIOS) {
    if (options.only && !options.only.includes(scenario.name)) continue;
    onScenario?.(scenario.name);
    const sink = new RowSink(scenario.name);
    let agent: Awaited<ReturnType<typeof openAgent>> | undefined;
    try {
      agent = await openAgent(options.target);
      const client = new ScriptedClient(agent.transport);
      const ctx: ScenarioContext = { agent, client, rows: sink, options };
      try {
        await scenario.run(ctx);
      } catch (error) {
        if (error instanceof AuthRequired)
          sink.add(`${scenario.name}.requires-auth`, "INFO", error.message, "skip", [
            "session/new was refused until the client authenticates: this scenario's turn rows are not judged",
            describeError(error.refusal),
          ]);
        else
          sink.add(
            `${scenario.name}.completes`,
            "MANDATORY",
            "the scenario runs to its end (the agent answers and stays up)",
            false,
            [describeError(error), ...stderrExcerpt(agent.stderrTail()).map((l) => `stderr: ${l}`)],
          );
      }
      if (protocolVersion === undefined && ctx.negotiated) {
        peer = ctx.negotiated.info;
        protocolVersion = ctx.negotiated.version;
      }
      await client.close();
    } catch (error) {
      sink.add(`${scenario.name}.starts`, "MANDATORY", "the agent starts and accepts a connection", false, [
        describeError(error),
        ...(agent ? stderrExcerpt(agent.stderrTail()).map((l) => `stderr: ${l}`) : []),
      ]);
    } finally {
      await agent?.close().catch(() => {});
    }
    rows.push(...sink.rows);
  }
  return buildReport("agent", describeTarget(options.target), rows, peer, protocolVersion);
}
