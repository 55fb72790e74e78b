/**
 * The scenarios of `acp-kit check agent`, each run against a fresh agent process. A scenario
 * drives the agent with a `ScriptedClient` and adds rows judged from the wire.
 */
import { asMessage, describeEntry, is, type ScriptedClient, type WireEntry } from "@acp-kit/testkit";
import type { OpenedAgent } from "../agent-target.js";
import type { RowSink } from "../report.js";
import { sameJson } from "../same-json.js";
import type { CheckAgentOptions } from "./options.js";
import { checkSessionSurface } from "./session-surface.js";
import { judgeTurn } from "./turn-judge.js";

export interface ScenarioContext {
  agent: OpenedAgent;
  client: ScriptedClient;
  rows: RowSink;
  options: CheckAgentOptions;
}

export interface Scenario {
  name: string;
  description: string;
  run(context: ScenarioContext): Promise<void>;
}

type Init = { result: Record<string, unknown>; sessionCapabilities: Record<string, unknown> | undefined };

/** initialize + session/new; throws (with a row already added) when the agent cannot get that far. */
async function open(ctx: ScenarioContext): Promise<{ init: Init; sessionId: string }> {
  const result = await ctx.client.initialize();
  const capabilities = (result.capabilities ?? {}) as { session?: Record<string, unknown> | null };
  const sessionId = await ctx.client.newSession(ctx.options.cwd);
  return { init: { result, sessionCapabilities: capabilities.session ?? undefined }, sessionId };
}

const lastOf = (entries: WireEntry[]) => entries[entries.length - 1];

export const initializeScenario: Scenario = {
  name: "initialize",
  description: "initialize, session/new and JSON-RPC basics",
  async run(ctx) {
    const { client, rows } = ctx;
    let result: Record<string, unknown>;
    try {
      result = await client.initialize();
    } catch (error) {
      rows.add("initialize.answers", "MANDATORY", "initialize is answered with a result", false, [
        String(error),
        ...ctx.agent.stderrTail().slice(-3),
      ]);
      return;
    }
    const response = lastOf(client.log.filter((e) => e.from === "agent" && is.responseTo(0)(e))) as WireEntry;
    rows.add("initialize.answers", "MANDATORY", "initialize is answered with a result", true, [
      describeEntry(response),
    ]);
    rows.add(
      "initialize.protocol-version",
      "MANDATORY",
      "a v2 request is answered with protocolVersion 2",
      result.protocolVersion === 2,
      [`protocolVersion: ${JSON.stringify(result.protocolVersion)}`],
    );
    const info = result.info as { name?: unknown; version?: unknown } | undefined;
    rows.add(
      "initialize.info",
      "ADVISORY",
      "the agent names itself (info.name, info.version)",
      typeof info?.name === "string" && typeof info?.version === "string",
      [`info: ${JSON.stringify(info)}`],
    );
    const capabilities = (result.capabilities ?? {}) as { session?: unknown };
    rows.add("initialize.session-capability", "INFO", "advertised capabilities", "pass", [
      `capabilities: ${JSON.stringify(result.capabilities ?? {})}`,
    ]);

    const unknown = await client.connection.request("_acp_kit/no_such_method", {}).then(
      () => undefined,
      (error: { code?: number }) => error,
    );
    rows.add(
      "jsonrpc.method-not-found",
      "MANDATORY",
      "an unknown request method gets error -32601",
      unknown?.code === -32601,
      [describeEntry(lastOf(client.log.filter((e) => e.from === "agent")) as WireEntry)],
    );

    let sessionId: string | undefined;
    try {
      sessionId = await client.newSession(ctx.options.cwd);
      rows.add("session.new", "MANDATORY", "session/new answers a sessionId", true, [
        describeEntry(
          lastOf(
            client.log.filter((e) => e.from === "agent" && asMessage(e.message).result !== undefined),
          ) as WireEntry,
        ),
      ]);
    } catch (error) {
      rows.add("session.new", "MANDATORY", "session/new answers a sessionId", false, [
        String((error as Error).message ?? error),
      ]);
      return;
    }
    const session = capabilities.session as Record<string, unknown> | null | undefined;
    if (session) {
      const list = await client.connection.request("session/list", {}).then(
        (r) => ({ ok: true, r }),
        (e) => ({ ok: false, r: e }),
      );
      const listed = list.ok && Array.isArray((list.r as { sessions?: unknown }).sessions);
      rows.add(
        "session.list",
        "CAPABILITY",
        "session/list answers a sessions array (baseline of the session capability)",
        listed,
        [describeEntry(lastOf(client.log.filter((e) => e.from === "agent")) as WireEntry)],
      );
    } else
      rows.skip(
        "session.list",
        "CAPABILITY",
        "session/list answers a sessions array",
        "the agent does not advertise capabilities.session",
      );

    // Content the agent did not advertise must be refused with -32602.
    const prompt = (session?.prompt ?? {}) as Record<string, unknown>;
    if (!prompt.image) {
      const call = client.prompt(sessionId, [{ type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }]);
      const answer = await Promise.race([
        call.answered,
        new Promise<undefined>((r) => setTimeout(() => r(undefined), ctx.options.turnTimeoutMs)),
      ]);
      const code = answer && !answer.ok ? (answer.error as { code?: number }).code : undefined;
      const response = client.log.find(
        (e) => e.from === "agent" && is.responseTo(asMessage(call.request.message).id)(e),
      );
      rows.add(
        "prompt.unadvertised-content",
        "MANDATORY",
        "a prompt with an image block, without the image capability, is refused with -32602",
        code === -32602,
        [response ? describeEntry(response) : "no answer"],
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

    if (session) await checkSessionSurface(client, rows, sessionId, ctx.options.cwd, session);
  },
};

export const promptScenario: Scenario = {
  name: "prompt",
  description: "one ordinary turn: the v2 prompt lifecycle",
  async run(ctx) {
    const { sessionId } = await open(ctx);
    ctx.client.permissions = "allow";
    const call = ctx.client.prompt(sessionId, ctx.options.prompt);
    const outcome = await judgeTurn(ctx.client.log, sessionId, call, ctx.rows, { ...ctx.options, prefix: "prompt" });
    const echo = ctx.client.log.find(
      (e) => e.from === "agent" && is.update("user_message", sessionId)(e),
      call.request.seq,
    );
    if (echo) {
      const sent = asMessage(call.request.message).params?.prompt;
      const content = asMessage(echo.message).params?.update?.content;
      rows(ctx).add(
        "prompt.echo-content",
        "ADVISORY",
        "the user_message echo carries the prompt's content",
        sameJson(content, sent),
        [describeEntry(echo)],
      );
    }
    if (outcome.idle) {
      // A second prompt in the same session: a new, distinct messageId.
      const second = ctx.client.prompt(sessionId, ctx.options.prompt);
      const again = await judgeTurn(ctx.client.log, sessionId, second, ctx.rows, {
        ...ctx.options,
        prefix: "prompt.second",
      });
      if (outcome.messageId && again.messageId)
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

const rows = (ctx: ScenarioContext) => ctx.rows;

export const cancelScenario: Scenario = {
  name: "cancel",
  description: "a long job, cancelled with session/cancel",
  async run(ctx) {
    const { sessionId } = await open(ctx);
    const { client, options } = ctx;
    client.permissions = "allow";
    const call = client.prompt(sessionId, options.longPrompt);
    const begun = await client.log.waitFor(
      (e) =>
        e.from === "agent" &&
        is.update(undefined, sessionId)(e) &&
        !String(asMessage(e.message).params?.update?.sessionUpdate).startsWith("user_message") &&
        !is.state("running", sessionId)(e),
      { after: call.request.seq, timeoutMs: 5_000 },
    );
    const earlyIdle = client.log.find((e) => e.from === "agent" && is.state("idle", sessionId)(e), call.request.seq);
    if (earlyIdle) {
      ctx.rows.skip(
        "cancel.idle-cancelled",
        "MANDATORY",
        "session/cancel ends the turn with stopReason cancelled",
        `the turn of ${JSON.stringify(options.longPrompt)} ended before it could be cancelled (${describeEntry(earlyIdle)}); use --long-prompt`,
      );
      return;
    }
    await client.cancel(sessionId);
    const cancelEntry = lastOf(
      client.log.filter((e) => e.from === "client" && is.notification("session/cancel")(e)),
    ) as WireEntry;
    ctx.rows.add("cancel.sent", "INFO", "session/cancel sent during the turn", "pass", [
      begun ? `after ${describeEntry(begun, 120)}` : "no work update seen within 5 s",
      describeEntry(cancelEntry),
    ]);
    await judgeTurn(client.log, sessionId, call, ctx.rows, {
      ...options,
      prefix: "cancel",
      expectStopReason: "cancelled",
      turnTimeoutMs: Math.min(options.turnTimeoutMs, 10_000),
    });
  },
};

/**
 * Opens a session and sends the permission prompt with permissions held; resolves once the agent
 * asks for one, or calls `skip` with the reason and resolves undefined when it never does.
 */
async function promptUntilPermissionRequest(ctx: ScenarioContext, skip: (reason: string) => void) {
  const { sessionId } = await open(ctx);
  const { client, options } = ctx;
  client.permissions = "hold";
  const call = client.prompt(sessionId, options.permissionPrompt);
  const request = await client.log.waitFor((e) => e.from === "agent" && is.request("session/request_permission")(e), {
    after: call.request.seq,
    timeoutMs: options.turnTimeoutMs,
  });
  if (request === undefined) {
    skip(`no session/request_permission for ${JSON.stringify(options.permissionPrompt)}`);
    client.permissions = "allow";
    return undefined;
  }
  return { sessionId, call, request };
}

export const permissionScenario: Scenario = {
  name: "permission",
  description: "a turn that asks for a permission, answered after requires_action",
  async run(ctx) {
    const held = await promptUntilPermissionRequest(ctx, (reason) =>
      ctx.rows.skip(
        "permission.requested",
        "INFO",
        "the permission prompt makes the agent ask",
        `${reason}; use --permission-prompt`,
      ),
    );
    if (held === undefined) return;
    const { sessionId, call, request } = held;
    const { client, options } = ctx;
    const params = asMessage(request.message).params as {
      options?: { optionId?: unknown; kind?: unknown }[];
      sessionId?: unknown;
    };
    const wellFormed =
      Array.isArray(params?.options) &&
      params.options.length > 0 &&
      params.options.every((o) => typeof o.optionId === "string");
    ctx.rows.add(
      "permission.options",
      "MANDATORY",
      "a permission request names its session and offers options with ids",
      wellFormed && params.sessionId === sessionId,
      [describeEntry(request)],
    );
    await new Promise((r) => setTimeout(r, options.graceMs));
    const blocked = client.log.find(
      (e) => e.from === "agent" && is.state("requires_action", sessionId)(e),
      call.request.seq,
    );
    ctx.rows.add(
      "permission.requires-action",
      "ADVISORY",
      "the agent reports requires_action while the turn waits on the permission",
      blocked !== undefined,
      [
        blocked
          ? describeEntry(blocked)
          : `no state_update requires_action within ${options.graceMs} ms of ${describeEntry(request, 80)}`,
      ],
    );
    const answeredAt = client.log.lastSeq;
    client.permissions = "allow";
    client.answerHeld("allow");
    const outcome = await judgeTurn(client.log, sessionId, call, ctx.rows, { ...options, prefix: "permission" });
    if (blocked) {
      const resumed = client.log.find(
        (e) => e.from === "agent" && (is.state("running", sessionId)(e) || is.state("idle", sessionId)(e)),
        answeredAt,
      );
      ctx.rows.add(
        "permission.leaves-requires-action",
        "MANDATORY",
        "after requires_action the agent later reports running or idle",
        resumed !== undefined,
        [resumed ? describeEntry(resumed) : "requires_action was never followed by running or idle"],
      );
    }
    void outcome;
  },
};

export const permissionCancelScenario: Scenario = {
  name: "permission-cancel",
  description: "session/cancel while a permission request is pending",
  async run(ctx) {
    const held = await promptUntilPermissionRequest(ctx, (reason) =>
      ctx.rows.skip(
        "permission-cancel.idle-cancelled",
        "MANDATORY",
        "a cancel during a permission request ends the turn cancelled",
        reason,
      ),
    );
    if (held === undefined) return;
    const { sessionId, call } = held;
    const { client, options } = ctx;
    await client.cancel(sessionId);
    const cancelAt = client.log.lastSeq;
    // As a client must: the pending permission is answered `cancelled`.
    client.answerHeld("cancelled");
    client.permissions = "cancelled";
    await judgeTurn(client.log, sessionId, call, ctx.rows, {
      ...options,
      prefix: "permission-cancel",
      expectStopReason: "cancelled",
      turnTimeoutMs: Math.min(options.turnTimeoutMs, 10_000),
    });
    const cancelRequest = client.log.find(
      (e) => e.from === "agent" && is.notification("$/cancel_request")(e),
      cancelAt,
    );
    ctx.rows.add(
      "permission-cancel.cancel-request",
      "INFO",
      "the agent withdraws the pending permission with $/cancel_request (optional)",
      "pass",
      [cancelRequest ? describeEntry(cancelRequest) : "no $/cancel_request (the client answered cancelled itself)"],
    );
  },
};

export const SCENARIOS: Scenario[] = [
  initializeScenario,
  promptScenario,
  cancelScenario,
  permissionScenario,
  permissionCancelScenario,
];
