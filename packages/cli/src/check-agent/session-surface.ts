/**
 * The session methods an agent owes for what it advertised, asked on the open session. v2: the
 * `capabilities.session` baseline — resume (with a state snapshot before the response), close —
 * and delete when `session.delete` is advertised. v1: each of `sessionCapabilities.close` and
 * `.delete` on its own (v1's resume and `loadSession` restore a session in a fresh agent:
 * resume-scenario.ts). Answers are validated by the negotiated version's schema.
 */
import { asMessage, describeEntry, is, type ScriptedClient, type WireEntry } from "@acp-kit/testkit";
import { describeAnswer } from "../evidence.js";
import type { RowSink } from "../report.js";
import { schemaCheck } from "../schema-check.js";
import { type Negotiated, newSession } from "./negotiated.js";

type Answer = { ok: boolean; entry: WireEntry | undefined };

async function call(client: ScriptedClient, method: string, params: unknown): Promise<Answer> {
  const ok = await client.connection.request(method, params).then(
    () => true,
    () => false,
  );
  const request = client.log.entries.findLast((e) => e.from === "client" && is.request(method)(e));
  const entry =
    request && client.log.find((e) => e.from === "agent" && is.responseTo(asMessage(request.message).id)(e));
  return { ok, entry };
}

export async function checkSessionSurface(
  client: ScriptedClient,
  rows: RowSink,
  sessionId: string,
  cwd: string,
  negotiated: Negotiated,
): Promise<void> {
  const v = negotiated.version;
  const advertised = negotiated.session;
  /** Why a row is skipped: the capability the version names for it. */
  const notAdvertised = (v1Name: string) =>
    v === 1 ? `agentCapabilities.${v1Name} is not advertised` : "the agent does not advertise capabilities.session";
  const evidence = (answer: Answer, method: string, ...extra: (string | undefined)[]) => {
    if (!answer.entry) return ["no answer", ...extra];
    const result = asMessage(answer.entry.message).result;
    const valid = answer.ok ? schemaCheck(v, method, "result", result) : { ok: true as const };
    return [describeAnswer(answer.entry), valid.ok ? undefined : valid.why, ...extra];
  };
  const passes = (answer: Answer, method: string) =>
    answer.ok &&
    answer.entry !== undefined &&
    schemaCheck(v, method, "result", asMessage(answer.entry.message).result).ok;

  // v1's resume and load are asked of a fresh agent after a turn (resume-scenario.ts).
  if (v === 2 && advertised.resume) {
    const before = client.log.lastSeq;
    const resumed = await call(client, "session/resume", { sessionId, cwd });
    rows.add(
      "session.resume",
      "CAPABILITY",
      "session/resume succeeds for a known session (baseline of the session capability)",
      passes(resumed, "session/resume"),
      evidence(resumed, "session/resume"),
    );
    if (resumed.ok && resumed.entry) {
      const snapshot = client.log.find(
        (e) =>
          e.from === "agent" && is.update("state_update", sessionId)(e) && e.seq < (resumed.entry as WireEntry).seq,
        before,
      );
      rows.add(
        "session.resume-snapshot",
        "CAPABILITY",
        "a resume sends a state_update snapshot before its response",
        snapshot !== undefined,
        [
          snapshot
            ? describeEntry(snapshot)
            : `no state_update between the request and ${describeEntry(resumed.entry, 80)}`,
        ],
      );
    }
  } else if (v === 2)
    rows.skip(
      "session.resume",
      "CAPABILITY",
      "session/resume succeeds for a known session",
      notAdvertised("sessionCapabilities.resume"),
    );

  if (advertised.close) {
    const closed = await call(client, "session/close", { sessionId });
    rows.add(
      "session.close",
      "CAPABILITY",
      v === 1
        ? "session/close succeeds for an open session (sessionCapabilities.close is advertised)"
        : "session/close succeeds for an open session (baseline of the session capability)",
      passes(closed, "session/close"),
      evidence(closed, "session/close"),
    );
  } else
    rows.skip(
      "session.close",
      "CAPABILITY",
      "session/close succeeds for an open session",
      notAdvertised("sessionCapabilities.close"),
    );

  if (!advertised.delete) {
    rows.skip(
      "session.delete",
      "CAPABILITY",
      "session/delete removes the session from session/list",
      v === 1 ? "sessionCapabilities.delete is not advertised" : "session.delete is not advertised",
    );
    return;
  }
  const other = await newSession(client, negotiated, cwd);
  const deleted = await call(client, "session/delete", { sessionId: other });
  // Whether it left the list can only be seen when session/list is advertised too.
  const listed = advertised.list
    ? await client.connection.request("session/list", {}).then(
        (r) => (r as { sessions?: { sessionId?: unknown }[] }).sessions ?? [],
        () => undefined,
      )
    : [];
  const stillListed = listed?.some((s) => s.sessionId === other) ?? true;
  rows.add(
    "session.delete",
    "CAPABILITY",
    `session/delete succeeds and the session leaves session/list (${v === 1 ? "sessionCapabilities.delete" : "session.delete"} is advertised)`,
    deleted.ok && !stillListed,
    [
      deleted.entry ? describeAnswer(deleted.entry) : "no answer",
      !advertised.list
        ? "session/list is not advertised: only the answer is judged"
        : listed === undefined
          ? "session/list failed afterwards"
          : stillListed
            ? `${other} is still listed`
            : `${other} is no longer listed`,
    ],
  );
}
