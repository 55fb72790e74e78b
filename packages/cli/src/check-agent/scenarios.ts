/**
 * The scenarios of `acp-kit check agent`, each run against a fresh agent process. A scenario
 * drives the agent with a `ScriptedClient`, negotiates the version as a real client does (asks
 * for 2, accepts 1), and adds rows judged from the wire by that version's rules.
 */
import { asMessage, describeEntry, is, type WireEntry } from "@acp-kit/testkit";
import { describeAnswer, describeError, stderrExcerpt } from "../evidence.js";
import { sameJson } from "../same-json.js";
import { schemaCheck } from "../schema-check.js";
import { CHECK_INITIALIZE, describeAuthMethods, isAuthRefusal, newSession, readInitialize } from "./negotiated.js";
import { permissionCancelScenario, permissionScenario } from "./permission-scenarios.js";
import { resumeScenario } from "./resume-scenario.js";
import { judgeOptions, lastFromAgent, lastOf, open, type Scenario } from "./scenario-context.js";
import { checkSessionSurface } from "./session-surface.js";
import { judgeTurn } from "./turn-judge.js";
import { isSessionLevel } from "./turn-wire.js";

export { AuthRequired, type ScenarioContext } from "./scenario-context.js";

export const initializeScenario: Scenario = {
  name: "initialize",
  description: "initialize, session/new and JSON-RPC basics",
  async run(ctx) {
    const { client, rows } = ctx;
    let result: Record<string, unknown>;
    try {
      result = await client.initialize(CHECK_INITIALIZE);
    } catch (error) {
      rows.add("initialize.answers", "MANDATORY", "initialize is answered with a result", false, [
        describeError(error),
        ...stderrExcerpt(ctx.agent.stderrTail()).map((l) => `stderr: ${l}`),
      ]);
      return;
    }
    const response = lastOf(client.log.filter((e) => e.from === "agent" && is.responseTo(0)(e))) as WireEntry;
    rows.add("initialize.answers", "MANDATORY", "initialize is answered with a result", true, [
      describeEntry(response),
    ]);
    const negotiated = readInitialize(result);
    rows.add(
      "initialize.protocol-version",
      "MANDATORY",
      "a request for version 2 is answered with 2, or with 1 by an agent that speaks only v1",
      negotiated !== undefined,
      [`protocolVersion: ${JSON.stringify(result.protocolVersion)}`],
    );
    if (negotiated === undefined) return;
    ctx.negotiated = negotiated;
    const v = negotiated.version;
    rows.version = v;
    const valid = schemaCheck(v, "initialize", "result", result);
    rows.add("initialize.result-valid", "MANDATORY", `the initialize answer matches the v${v} schema`, valid.ok, [
      describeEntry(response),
      valid.ok ? undefined : valid.why,
    ]);
    const info = negotiated.info as { name?: unknown; version?: unknown } | undefined;
    const infoField = v === 1 ? "agentInfo" : "info";
    rows.add(
      "initialize.info",
      "ADVISORY",
      `the agent names itself (${infoField}.name, ${infoField}.version)`,
      typeof info?.name === "string" && typeof info?.version === "string",
      [`${infoField}: ${JSON.stringify(info)}`],
    );
    rows.add("initialize.session-capability", "INFO", "advertised capabilities", "pass", [
      `${v === 1 ? "agentCapabilities" : "capabilities"}: ${JSON.stringify(negotiated.capabilities)}`,
      `authMethods: ${describeAuthMethods(negotiated.authMethods)}`,
    ]);

    const unknown = await client.connection.request("_acp_kit/no_such_method", {}).then(
      () => undefined,
      (error: { code?: number }) => error,
    );
    const unknownAnswer = lastFromAgent(client);
    rows.add(
      "jsonrpc.method-not-found",
      "MANDATORY",
      "an unknown request method gets error -32601",
      unknown?.code === -32601,
      [unknownAnswer ? describeAnswer(unknownAnswer) : "no answer"],
    );

    let sessionId: string;
    try {
      sessionId = await newSession(client, negotiated, ctx.options.cwd);
    } catch (error) {
      const answer = lastFromAgent(client);
      const evidence = answer && asMessage(answer.message).error ? describeAnswer(answer) : describeError(error);
      if (isAuthRefusal(error))
        rows.add(
          "session.requires-auth",
          "INFO",
          `requires authentication: methods ${describeAuthMethods(negotiated.authMethods)}`,
          "skip",
          [
            `session/new was refused until the client authenticates; the session and turn rows are not judged`,
            evidence,
          ],
        );
      else rows.add("session.new", "MANDATORY", "session/new answers a sessionId", false, [evidence]);
      return;
    }
    const created = lastOf(
      client.log.filter((e) => e.from === "agent" && asMessage(e.message).result !== undefined),
    ) as WireEntry;
    const createdValid = schemaCheck(v, "session/new", "result", asMessage(created.message).result);
    rows.add("session.new", "MANDATORY", `session/new answers a sessionId (v${v} schema)`, createdValid.ok, [
      describeEntry(created),
      createdValid.ok ? undefined : createdValid.why,
    ]);
    if (negotiated.session.list) {
      const list = await client.connection.request("session/list", {}).then(
        (r) => ({ ok: true, r }),
        (e) => ({ ok: false, r: e }),
      );
      const listed = list.ok && Array.isArray((list.r as { sessions?: unknown }).sessions);
      const answer = lastFromAgent(client);
      const listValid = list.ok ? schemaCheck(v, "session/list", "result", list.r) : { ok: true as const };
      rows.add(
        "session.list",
        "CAPABILITY",
        v === 1
          ? "session/list answers a sessions array (sessionCapabilities.list is advertised)"
          : "session/list answers a sessions array (baseline of the session capability)",
        listed && listValid.ok,
        [answer ? describeAnswer(answer) : "no answer", listValid.ok ? undefined : listValid.why],
      );
    } else
      rows.skip(
        "session.list",
        "CAPABILITY",
        "session/list answers a sessions array",
        v === 1
          ? "the agent does not advertise agentCapabilities.sessionCapabilities.list"
          : "the agent does not advertise capabilities.session",
      );

    if (v === 1)
      rows.onlyIn(
        2,
        "prompt.unadvertised-content",
        "MANDATORY",
        "unadvertised content is refused with -32602",
        "v1 puts unadvertised content on the client (it MUST NOT send it); the agent is not required to refuse it",
      );
    else if (!negotiated.promptImage) {
      // Content the agent did not advertise must be refused with -32602.
      const call = client.prompt(sessionId, [{ type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }]);
      const answer = await Promise.race([
        call.answered,
        new Promise<undefined>((r) => setTimeout(() => r(undefined), ctx.options.turnTimeoutMs)),
      ]);
      const code = answer && !answer.ok ? (answer.error as { code?: number }).code : undefined;
      const refused = client.log.find(
        (e) => e.from === "agent" && is.responseTo(asMessage(call.request.message).id)(e),
      );
      rows.add(
        "prompt.unadvertised-content",
        "MANDATORY",
        "a prompt with an image block, without the image capability, is refused with -32602",
        code === -32602,
        [refused ? describeAnswer(refused) : "no answer"],
      );
      // A refused prompt must not have started a turn that never ends.
      await new Promise((r) => setTimeout(r, ctx.options.graceMs));
    } else
      rows.skip(
        "prompt.unadvertised-content",
        "MANDATORY",
        "unadvertised content is refused with -32602",
        "the agent accepts images",
      );

    await checkSessionSurface(client, rows, sessionId, ctx.options.cwd, negotiated);
  },
};

export const promptScenario: Scenario = {
  name: "prompt",
  description: "one ordinary turn: the prompt lifecycle of the negotiated version",
  async run(ctx) {
    const { negotiated, sessionId } = await open(ctx);
    ctx.client.permissions = "allow";
    const call = ctx.client.prompt(sessionId, ctx.options.prompt);
    const outcome = await judgeTurn(ctx.client.log, sessionId, call, ctx.rows, judgeOptions(ctx, negotiated, "prompt"));
    const echo = ctx.client.log.find(
      (e) => e.from === "agent" && is.update("user_message", sessionId)(e),
      call.request.seq,
    );
    if (negotiated.version === 1)
      ctx.rows.onlyIn(
        2,
        "prompt.echo-content",
        "ADVISORY",
        "the user_message echo carries the prompt's content",
        "a v1 agent does not echo the prompt",
      );
    else if (echo) {
      const sent = asMessage(call.request.message).params?.prompt;
      const content = asMessage(echo.message).params?.update?.content;
      ctx.rows.add(
        "prompt.echo-content",
        "ADVISORY",
        "the user_message echo carries the prompt's content",
        sameJson(content, sent),
        [describeEntry(echo)],
      );
    }
    if (outcome.ended) {
      // A second prompt in the same session (v2: with a new, distinct messageId).
      const second = ctx.client.prompt(sessionId, ctx.options.prompt);
      const again = await judgeTurn(
        ctx.client.log,
        sessionId,
        second,
        ctx.rows,
        judgeOptions(ctx, negotiated, "prompt.second"),
      );
      if (negotiated.version === 1)
        ctx.rows.onlyIn(
          2,
          "prompt.distinct-message-ids",
          "MANDATORY",
          "two submissions get distinct messageIds",
          "a v1 prompt has no messageId",
        );
      else if (outcome.messageId && again.messageId)
        ctx.rows.add(
          "prompt.distinct-message-ids",
          "MANDATORY",
          "two submissions get distinct messageIds, even with identical text",
          outcome.messageId !== again.messageId,
          [`${outcome.messageId} / ${again.messageId}`],
        );
    }
  },
};

export const cancelScenario: Scenario = {
  name: "cancel",
  description: "a long job, cancelled with session/cancel",
  async run(ctx) {
    const { negotiated, sessionId } = await open(ctx);
    const { client, options } = ctx;
    client.permissions = "allow";
    const call = client.prompt(sessionId, options.longPrompt);
    // v2 ends a turn with its idle, v1 with the prompt's response.
    const turnEnd = (e: WireEntry) =>
      e.from === "agent" &&
      (negotiated.version === 1
        ? is.responseTo(asMessage(call.request.message).id)(e)
        : is.state("idle", sessionId)(e));
    // The cancel goes once the turn's own work is under way (or the turn ended by itself), waited
    // for as long as a turn may take: an update the session sends by itself (available commands,
    // config options, a title) says nothing about the turn, and a cancel sent before the work
    // began races the agent's own setup.
    const isWork = (e: WireEntry) =>
      e.from === "agent" &&
      is.update(undefined, sessionId)(e) &&
      !String(asMessage(e.message).params?.update?.sessionUpdate).startsWith("user_message") &&
      !is.update("state_update", sessionId)(e) &&
      !isSessionLevel(e);
    const seen = await client.log.waitFor((e) => isWork(e) || turnEnd(e), {
      after: call.request.seq,
      timeoutMs: options.turnTimeoutMs,
    });
    const begun = seen && isWork(seen) ? seen : undefined;
    const endedAlready = client.log.find(turnEnd, call.request.seq);
    if (endedAlready) {
      ctx.rows.skip(
        "cancel.idle-cancelled",
        "MANDATORY",
        "session/cancel ends the turn with stopReason cancelled",
        `the turn of ${JSON.stringify(options.longPrompt)} ended before it could be cancelled (${describeAnswer(endedAlready)}); use --long-prompt`,
      );
      return;
    }
    await client.cancel(sessionId);
    const cancelEntry = lastOf(
      client.log.filter((e) => e.from === "client" && is.notification("session/cancel")(e)),
    ) as WireEntry;
    ctx.rows.add("cancel.sent", "INFO", "session/cancel sent during the turn", "pass", [
      begun ? `after ${describeEntry(begun, 120)}` : `no work update for the turn within ${options.turnTimeoutMs} ms`,
      describeEntry(cancelEntry),
    ]);
    // The turn then has the whole --timeout to settle: a slow agent is not failed for its pace.
    await judgeTurn(client.log, sessionId, call, ctx.rows, {
      ...judgeOptions(ctx, negotiated, "cancel"),
      expectStopReason: "cancelled",
    });
  },
};

export const SCENARIOS: Scenario[] = [
  initializeScenario,
  promptScenario,
  cancelScenario,
  permissionScenario,
  permissionCancelScenario,
  resumeScenario,
];
