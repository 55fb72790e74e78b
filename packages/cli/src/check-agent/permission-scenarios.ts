/**
 * The permission scenarios of `acp-kit check agent`: a turn that asks for a permission, answered,
 * and the same turn cancelled while the permission is pending.
 */
import { asMessage, describeEntry, is, type PromptCall, type WireEntry } from "@acp-kit/testkit";
import type { Tier } from "../report.js";
import { schemaCheck } from "../schema-check.js";
import { judgeOptions, open, type Scenario, type ScenarioContext } from "./scenario-context.js";
import { judgeTurn } from "./turn-judge.js";

/** The turn of a permission scenario, held at the agent's permission request. */
interface HeldPermission {
  negotiated: Awaited<ReturnType<typeof open>>["negotiated"];
  sessionId: string;
  call: PromptCall;
  request: WireEntry;
}

/** The row skipped when the permission prompt never makes the agent ask (the scenario cannot run). */
interface SkippedRow {
  id: string;
  tier: Tier;
  title: string;
  /** Appended to the reason. */
  hint?: string;
}

/**
 * A scenario that opens a session and sends the permission prompt with permissions held, then
 * runs `judge` once the agent asks for one; when it never does, skips `skipped` with the reason.
 */
function heldPermissionScenario(
  name: string,
  description: string,
  skipped: SkippedRow,
  judge: (ctx: ScenarioContext, held: HeldPermission) => Promise<void>,
): Scenario {
  return {
    name,
    description,
    async run(ctx) {
      const { negotiated, sessionId } = await open(ctx);
      const { client, options } = ctx;
      client.permissions = "hold";
      const call = client.prompt(sessionId, options.permissionPrompt);
      const request = await client.log.waitFor(
        (e) => e.from === "agent" && is.request("session/request_permission")(e),
        { after: call.request.seq, timeoutMs: options.turnTimeoutMs },
      );
      if (request === undefined) {
        const reason = `no session/request_permission for ${JSON.stringify(options.permissionPrompt)}`;
        ctx.rows.skip(skipped.id, skipped.tier, skipped.title, skipped.hint ? `${reason}; ${skipped.hint}` : reason);
        client.permissions = "allow";
        return;
      }
      await judge(ctx, { negotiated, sessionId, call, request });
    },
  };
}

export const permissionScenario: Scenario = heldPermissionScenario(
  "permission",
  "a turn that asks for a permission, answered after requires_action (v2)",
  {
    id: "permission.requested",
    tier: "INFO",
    title: "the permission prompt makes the agent ask",
    hint: "use --permission-prompt",
  },
  async (ctx, { negotiated, sessionId, call, request }) => {
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
);

export const permissionCancelScenario: Scenario = heldPermissionScenario(
  "permission-cancel",
  "session/cancel while a permission request is pending",
  {
    id: "permission-cancel.idle-cancelled",
    tier: "MANDATORY",
    title: "a cancel during a permission request ends the turn cancelled",
  },
  async (ctx, { negotiated, sessionId, call }) => {
    const { client } = ctx;
    await client.cancel(sessionId);
    const cancelAt = client.log.lastSeq;
    // As a client must: the pending permission is answered `cancelled`.
    client.answerHeld("cancelled");
    client.permissions = "cancelled";
    // The turn has the whole --timeout to settle: a slow agent is not failed for its pace.
    await judgeTurn(client.log, sessionId, call, ctx.rows, {
      ...judgeOptions(ctx, negotiated, "permission-cancel"),
      expectStopReason: "cancelled",
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
);
