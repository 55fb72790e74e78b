/**
 * v1's session restore, as a client uses it: the session has had a turn, its agent is gone, and
 * another agent (a fresh process of the same command, or a new connection to the same URL) is
 * asked for it. `session/load` (`loadSession`) must succeed and replay the conversation before its
 * response; `session/resume` (`sessionCapabilities.resume`) must succeed. Each is asked of its
 * own fresh agent: asking an agent to load a session it already has open is not what v1 defines
 * (agents refuse it as "already loaded"), and a session that never had a turn may not be stored.
 * v2 has no `session/load`; its resume is the baseline judged on the open session (session-surface.ts).
 */
import { asMessage, describeEntry, is, ScriptedClient, type WireEntry } from "@acp-kit/testkit";
import { type OpenedAgent, openAgent } from "../agent-target.js";
import { describeAnswer, describeError, stderrExcerpt } from "../evidence.js";
import { schemaCheck } from "../schema-check.js";
import { CHECK_INITIALIZE } from "./negotiated.js";
import { open, type Scenario, type ScenarioContext } from "./scenario-context.js";

const LOAD_TITLE =
  "session/load of a session with a turn, asked of a fresh agent, succeeds (loadSession is advertised)";
const REPLAY_TITLE =
  "the load replays the conversation before its response: the prompt (user_message_chunk), then the reply (agent_message_chunk)";
const RESUME_TITLE =
  "session/resume of a session with a turn, asked of a fresh agent, succeeds (sessionCapabilities.resume is advertised)";

const textOf = (content: unknown): string =>
  typeof content === "object" && content !== null && (content as { type?: unknown }).type === "text"
    ? String((content as { text?: unknown }).text ?? "")
    : "";

interface Asked {
  /** The agent's answer, a result or an error. */
  answer: WireEntry | undefined;
  ok: boolean;
  /** The session's updates between the request and the answer. */
  before: WireEntry[];
  /** Why there is no answer: the fresh agent did not start or answer, or the connection failed. */
  failure?: string[];
}

/** A fresh agent, initialized; `method` sent to it; its answer (within `--timeout`) and the session updates before it. */
async function askFresh(ctx: ScenarioContext, method: string, params: { sessionId: string }): Promise<Asked> {
  let agent: OpenedAgent | undefined;
  let client: ScriptedClient | undefined;
  try {
    agent = await openAgent(ctx.options.target);
    client = new ScriptedClient(agent.transport);
    await client.initialize(CHECK_INITIALIZE);
    const asked = client.connection.request(method, params).then(
      () => true,
      () => false,
    );
    const log = client.log;
    const request = log.entries.findLast((e) => e.from === "client" && is.request(method)(e)) as WireEntry;
    const ok = await Promise.race([
      asked,
      new Promise<undefined>((r) => setTimeout(() => r(undefined), ctx.options.turnTimeoutMs)),
    ]);
    const answer = log.find((e) => e.from === "agent" && is.responseTo(asMessage(request.message).id)(e), request.seq);
    const before = log.filter(
      (e) =>
        e.from === "agent" &&
        is.update(undefined, params.sessionId)(e) &&
        e.seq < (answer?.seq ?? Number.MAX_SAFE_INTEGER),
      request.seq,
    );
    if (ok === undefined)
      return { answer, ok: false, before, failure: [`no answer to ${method} within ${ctx.options.turnTimeoutMs} ms`] };
    return { answer, ok, before };
  } catch (error) {
    const stderr = agent ? stderrExcerpt(agent.stderrTail()).map((l) => `stderr: ${l}`) : [];
    return { answer: undefined, ok: false, before: [], failure: [describeError(error), ...stderr] };
  } finally {
    await client?.close();
    await agent?.close().catch(() => {});
  }
}

export const resumeScenario: Scenario = {
  name: "resume",
  description: "v1: a session with one turn, loaded (session/load) and resumed (session/resume) by fresh agents",
  async run(ctx) {
    const { negotiated, sessionId } = await open(ctx);
    const { rows, options } = ctx;
    if (negotiated.version === 2) {
      rows.onlyIn(
        1,
        "session.load",
        "CAPABILITY",
        "session/load replays a known session (loadSession)",
        "v2 resumes with replayFrom instead",
      );
      return;
    }
    const { load, resume } = negotiated.session;
    rows.onlyIn(
      2,
      "session.resume-snapshot",
      "CAPABILITY",
      "a resume sends a state_update snapshot before its response",
      "v1 has no state_update",
    );
    if (!load)
      rows.skip(
        "session.load",
        "CAPABILITY",
        "session/load replays a known session",
        "agentCapabilities.loadSession is not advertised",
      );
    if (!resume)
      rows.skip(
        "session.resume",
        "CAPABILITY",
        "session/resume succeeds for a known session",
        "agentCapabilities.sessionCapabilities.resume is not advertised",
      );
    if (!load && !resume) return;

    // The turn that gives the session something to restore; its own rows are the prompt scenario's.
    ctx.client.permissions = "allow";
    const call = ctx.client.prompt(sessionId, options.prompt);
    const turn = await Promise.race([
      call.answered,
      new Promise<undefined>((r) => setTimeout(() => r(undefined), options.turnTimeoutMs)),
    ]);
    if (turn?.ok !== true) {
      const why = `the turn before it did not end with a result within ${options.turnTimeoutMs} ms (${turn ? describeError(turn.error) : "no answer"}); the prompt rows judge it`;
      if (load) rows.skip("session.load", "CAPABILITY", LOAD_TITLE, why);
      if (resume) rows.skip("session.resume", "CAPABILITY", RESUME_TITLE, why);
      return;
    }
    // The first agent goes away, as when the editor restarts.
    await ctx.client.close();
    await ctx.agent.close();
    const params = { sessionId, cwd: options.cwd, mcpServers: [] };
    // A result is held to v1's schema; a refusal is quoted as sent.
    const valid = (method: string, asked: Asked) =>
      asked.ok && asked.answer
        ? schemaCheck(1, method, "result", asMessage(asked.answer.message).result)
        : { ok: true as const };

    if (load) {
      const loaded = await askFresh(ctx, "session/load", params);
      const schema = valid("session/load", loaded);
      rows.add("session.load", "CAPABILITY", LOAD_TITLE, loaded.ok && schema.ok, [
        ...(loaded.answer ? [describeAnswer(loaded.answer)] : (loaded.failure ?? ["no answer"])),
        schema.ok ? undefined : schema.why,
      ]);
      if (loaded.ok) {
        const kind = (e: WireEntry) => String(asMessage(e.message).params?.update?.sessionUpdate);
        const content = (e: WireEntry) => asMessage(e.message).params?.update?.content;
        const prompt = loaded.before.find(
          (e) => kind(e) === "user_message_chunk" && options.prompt.includes(textOf(content(e)).trim() || "\u0000"),
        );
        const reply = loaded.before.find((e) => kind(e) === "agent_message_chunk" && (!prompt || e.seq > prompt.seq));
        rows.add("session.load-replay", "ADVISORY", REPLAY_TITLE, prompt !== undefined && reply !== undefined, [
          prompt ? describeEntry(prompt, 120) : "no user_message_chunk with the prompt's text before the response",
          reply ? describeEntry(reply, 120) : "no agent_message_chunk after it before the response",
        ]);
      }
    }
    if (resume) {
      const resumed = await askFresh(ctx, "session/resume", params);
      const schema = valid("session/resume", resumed);
      rows.add("session.resume", "CAPABILITY", RESUME_TITLE, resumed.ok && schema.ok, [
        ...(resumed.answer ? [describeAnswer(resumed.answer)] : (resumed.failure ?? ["no answer"])),
        schema.ok ? undefined : schema.why,
      ]);
    }
  },
};
