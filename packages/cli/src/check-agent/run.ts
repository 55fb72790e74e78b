/** `acp-kit check agent`: every scenario against a fresh agent, one report. */
import { ScriptedClient } from "@acp-kit/testkit";
import { describeTarget, openAgent } from "../agent-target.js";
import { buildReport, type Report, RowSink } from "../report.js";
import type { CheckAgentOptions } from "./options.js";
import { SCENARIOS } from "./scenarios.js";

export async function checkAgent(options: CheckAgentOptions, onScenario?: (name: string) => void): Promise<Report> {
  const rows: RowSink["rows"] = [];
  let peer: unknown;
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
      try {
        await scenario.run({ agent, client, rows: sink, options });
      } catch (error) {
        const tail = agent.stderrTail().slice(-5);
        sink.add(
          `${scenario.name}.completes`,
          "MANDATORY",
          "the scenario runs to its end (the agent answers and stays up)",
          false,
          [(error as Error).message ?? String(error), ...tail.map((l) => `stderr: ${l}`)],
        );
      }
      if (peer === undefined) {
        const init = client.log.find((e) => e.from === "agent" && (e.message as { id?: unknown })?.id === 0);
        peer = (init?.message as { result?: { info?: unknown } } | undefined)?.result?.info;
      }
      await client.close();
    } catch (error) {
      sink.add(`${scenario.name}.starts`, "MANDATORY", "the agent starts and accepts a connection", false, [
        String((error as Error).message ?? error),
      ]);
    } finally {
      await agent?.close().catch(() => {});
    }
    rows.push(...sink.rows);
  }
  return buildReport("agent", describeTarget(options.target), rows, peer);
}
