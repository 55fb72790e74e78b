/**
 * What every checked client owes, judged from what it sent: `initialize` before anything else,
 * only methods the agent advertised, prompt content within the advertised capabilities, and
 * messages that match the schema.
 */
import { METHODS, validators } from "@acp-kit/protocol";
import { asMessage, describeEntry, type WireEntry, type WireLog } from "@acp-kit/testkit";
import type { RowSink } from "../report.js";

/** What the scripted agent advertises: the session baseline, no prompt extras, no auth, no delete. */
export const CHECK_AGENT_INITIALIZE = {
  protocolVersion: 2,
  info: { name: "acp-kit-check", title: "acp-kit check client", version: "1.0.0" },
  capabilities: { session: {} },
  authMethods: [],
};

/** Agent methods the scripted agent's advertisement allows (the session baseline and the lifecycle). */
const ALLOWED = new Set([
  "initialize",
  "session/new",
  "session/list",
  "session/resume",
  "session/close",
  "session/prompt",
  "session/cancel",
  "$/cancel_request",
]);
/** Prompt block types every agent accepts (others need `session.prompt.*`, not advertised here). */
const BASELINE_CONTENT = new Set(["text", "resource_link"]);

type ParamsValidator = (v: unknown) => { ok: boolean; error?: { path: string; message: string } };

/** The strict params validator of each wire method, looked up by the name a client sent. */
const paramsValidators: ReadonlyMap<string, ParamsValidator> = new Map(
  Object.entries(validators).map(([method, entry]): [string, ParamsValidator] => [method, entry.params]),
);

export function judgeClientBasics(log: WireLog, rows: RowSink): void {
  const sent = log.filter((e) => e.from === "client" && asMessage(e.message).method !== undefined);
  const first = sent[0];
  rows.add(
    "client.initialize-first",
    "MANDATORY",
    "the client sends initialize before anything else",
    first !== undefined && asMessage(first.message).method === "initialize",
    [first ? describeEntry(first, 160) : "the client sent nothing"],
  );

  const unadvertised = sent.filter((e) => {
    const method = asMessage(e.message).method as string;
    if (method.startsWith("_")) return false;
    return !ALLOWED.has(method);
  });
  rows.add(
    "client.advertised-methods",
    "MANDATORY",
    "the client calls only methods the agent advertised (no session/delete, auth/*, set_config_option without config options)",
    unadvertised.length === 0,
    unadvertised.length > 0
      ? unadvertised.slice(0, 3).map((e) => describeEntry(e, 160))
      : [`${sent.length} requests/notifications, all advertised`],
  );

  const prompts = sent.filter((e) => asMessage(e.message).method === "session/prompt");
  const badContent: string[] = [];
  for (const p of prompts) {
    const blocks = asMessage(p.message).params?.prompt;
    for (const block of Array.isArray(blocks) ? blocks : []) {
      const type = (block as { type?: unknown })?.type;
      if (!BASELINE_CONTENT.has(String(type)))
        badContent.push(`${describeEntry(p, 120)}: block type ${JSON.stringify(type)} was not advertised`);
    }
  }
  if (prompts.length === 0)
    rows.skip(
      "client.prompt-content",
      "MANDATORY",
      "prompt content stays within the advertised capabilities",
      "the client sent no session/prompt",
    );
  else
    rows.add(
      "client.prompt-content",
      "MANDATORY",
      "prompt content stays within the advertised capabilities (text, resource_link)",
      badContent.length === 0,
      badContent.length ? badContent.slice(0, 3) : [describeEntry(prompts[0] as WireEntry, 160)],
    );

  const invalid: string[] = [];
  for (const e of sent) {
    const m = asMessage(e.message);
    const method = m.method as string;
    if (!Object.hasOwn(METHODS, method) || method === "$/cancel_request") continue;
    const check = paramsValidators.get(method);
    const r = check?.(m.params);
    if (r && !r.ok) invalid.push(`${describeEntry(e, 120)}: ${r.error?.path} ${r.error?.message}`);
  }
  rows.add(
    "client.messages-valid",
    "MANDATORY",
    "every request and notification the client sends matches the schema",
    invalid.length === 0,
    invalid.length ? invalid.slice(0, 3) : [`${sent.length} checked`],
  );
}
