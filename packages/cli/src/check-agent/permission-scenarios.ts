/**
 * The permission scenarios of `acp-kit check agent`: a turn that asks for a permission, answered,
 * and the same turn cancelled while the permission is pending.
 */
import { asMessage, describeEntry, is } from "@acp-kit/testkit";
import { schemaCheck } from "../schema-check.js";
import { judgeOptions, open, type Scenario, type ScenarioContext } from "./scenario-context.js";
import { judgeTurn } from "./turn-judge.js";

/**
 * Opens a session and sends the permission prompt with permissions held; resolves once the agent
 * asks for one, or calls `skip` with the reason and resolves undefined when it never does.
 */
async function promptUntilPermissionRequest(ctx: ScenarioContext, skip: (reason: string) => void) {
  const { negotiated, sessionId } = await open(ctx);
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
  return { negotiated, sessionId, call, request };
}

export const permissionScenario: Scenario = {
  name: "permission",
  description: "a turn that asks for a permission, answered after requires_action (v2)",
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
    const { negotiated, sessionId, call, request } = held;
    const { client, options } = ctx;
    const v = negotiated.version;
    const params = asMessage(request.message).params as {
      options?: { optionId?: unknown; kind?: unknown }[];
      sessionId?: unknown;
    };
    const wellFormed =
      Array.isArray(params?.options) &&
      params.options.length > 0 &&
      params.options.every((o) => typeof o.optionId === "string");
    const valid = schemaCheck(v, "session/request_permission", "params", params);
    ctx.rows.add(
      "permission.options",
      "MANDATORY",
      v === 1
        ? "a permission request names its session and tool call and offers options with ids (v1 shape)"
        : "a permission request names its session and offers options with ids",
      wellFormed && params.sessionId === sessionId && valid.ok,
      [describeEntry(request), valid.ok ? undefined : valid.why],
    );
    await new Promise((r) => setTimeout(r, options.graceMs));
    const blocked =
      v === 2
        ? client.log.find((e) => e.from === "agent" && is.state("requires_action", sessionId)(e), call.request.seq)
        : undefined;
    if (v === 1)
      ctx.rows.onlyIn(
        2,
        "permission.requires-action",
        "ADVISORY",
        "the agent reports requires_action while the turn waits on the permission",
        "v1 has no state_update",
      );
    else
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
    await judgeTurn(client.log, sessionId, call, ctx.rows, judgeOptions(ctx, negotiated, "permission"));
    if (v === 1)
      ctx.rows.onlyIn(
        2,
        "permission.leaves-requires-action",
        "MANDATORY",
        "after requires_action the agent later reports running or idle",
        "v1 has no state_update",
      );
    else if (blocked) {
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
    const { negotiated, sessionId, call } = held;
    const { client, options } = ctx;
    await client.cancel(sessionId);
    const cancelAt = client.log.lastSeq;
    // As a client must: the pending permission is answered `cancelled`.
    client.answerHeld("cancelled");
    client.permissions = "cancelled";
    await judgeTurn(client.log, sessionId, call, ctx.rows, {
      ...judgeOptions(ctx, negotiated, "permission-cancel"),
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
