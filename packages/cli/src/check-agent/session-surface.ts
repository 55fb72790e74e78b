/**
 * The session baseline an agent owes once it advertises `capabilities.session`: resume (with a
 * state snapshot before the response), close, and delete when `session.delete` is advertised.
 */
import { asMessage, describeEntry, is, type ScriptedClient, type WireEntry } from "@acp-kit/testkit";
import type { RowSink } from "../report.js";

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
  session: Record<string, unknown>,
): Promise<void> {
  const before = client.log.lastSeq;
  const resumed = await call(client, "session/resume", { sessionId, cwd });
  rows.add(
    "session.resume",
    "CAPABILITY",
    "session/resume succeeds for a known session (baseline of the session capability)",
    resumed.ok,
    [resumed.entry ? describeEntry(resumed.entry) : "no answer"],
  );
  if (resumed.ok && resumed.entry) {
    const snapshot = client.log.find(
      (e) => e.from === "agent" && is.update("state_update", sessionId)(e) && e.seq < (resumed.entry as WireEntry).seq,
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

  const closed = await call(client, "session/close", { sessionId });
  rows.add(
    "session.close",
    "CAPABILITY",
    "session/close succeeds for an open session (baseline of the session capability)",
    closed.ok,
    [closed.entry ? describeEntry(closed.entry) : "no answer"],
  );

  if (!session.delete) {
    rows.skip(
      "session.delete",
      "CAPABILITY",
      "session/delete removes the session from session/list",
      "session.delete is not advertised",
    );
    return;
  }
  const other = await client.newSession(cwd);
  const deleted = await call(client, "session/delete", { sessionId: other });
  const listed = await client.connection.request("session/list", {}).then(
    (r) => (r as { sessions?: { sessionId?: unknown }[] }).sessions ?? [],
    () => undefined,
  );
  const stillListed = listed?.some((s) => s.sessionId === other) ?? true;
  rows.add(
    "session.delete",
    "CAPABILITY",
    "session/delete succeeds and the session leaves session/list (session.delete is advertised)",
    deleted.ok && !stillListed,
    [
      deleted.entry ? describeEntry(deleted.entry) : "no answer",
      listed === undefined
        ? "session/list failed afterwards"
        : stillListed
          ? `${other} is still listed`
          : `${other} is no longer listed`,
    ],
  );
}
