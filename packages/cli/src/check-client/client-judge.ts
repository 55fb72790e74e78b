/**
 * What every checked client owes, judged from what it sent: `initialize` before anything else,
 * only methods the agent advertised, prompt content within the advertised capabilities, and
 * messages that match the schema — all by the version negotiated with it.
 */
import { METHODS } from "@acp-kit/protocol";
import { METHODS as V1_METHODS } from "@acp-kit/protocol/v1";
import { asMessage, describeEntry, type WireEntry, type WireLog } from "@acp-kit/testkit";
import type { ProtocolVersion, RowSink } from "../report.js";
import { schemaCheck } from "../schema-check.js";

/** What the scripted agent advertises to a v2 client: the session baseline, no prompt extras, no auth, no delete. */
const V2_INITIALIZE = {
  protocolVersion: 2,
  info: { name: "acp-kit-check", title: "acp-kit check client", version: "1.0.0" },
  capabilities: { session: {} },
  authMethods: [],
};

/** The same advertisement in v1's spelling, for a client that asked for version 1. */
const V1_INITIALIZE = {
  protocolVersion: 1,
  agentInfo: { name: "acp-kit-check", title: "acp-kit check client", version: "1.0.0" },
  agentCapabilities: {
    loadSession: false,
    promptCapabilities: { image: false, audio: false, embeddedContext: false },
    sessionCapabilities: { list: {}, resume: {}, close: {} },
  },
  authMethods: [],
};

/** The `initialize` answer of the version negotiated with the client. */
export function checkAgentInitialize(version: ProtocolVersion): Record<string, unknown> {
  return version === 1 ? V1_INITIALIZE : V2_INITIALIZE;
}

/**
 * The version the scripted agent answers, as a real agent does: 1 to a client that asks for 1,
 * 2 (its latest) to any other request.
 */
export function negotiatedVersion(log: WireLog): ProtocolVersion | undefined {
  const init = log.find((e) => e.from === "client" && asMessage(e.message).method === "initialize");
  if (init === undefined) return undefined;
  return asMessage(init.message).params?.protocolVersion === 1 ? 1 : 2;
}

/**
 * Agent methods the advertisement allows, in either version: the session baseline (v2), or
 * `sessionCapabilities` list, resume and close (v1), and the prompt lifecycle.
 */
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
const NOT_ADVERTISED: Record<ProtocolVersion, string> = {
  2: "no session/delete, auth/*, set_config_option without config options",
  1: "no session/load without loadSession, session/delete, authenticate, set_mode without modes",
};
/** Prompt block types every agent accepts (others need a prompt capability, not advertised here). */
const BASELINE_CONTENT = new Set(["text", "resource_link"]);

export function judgeClientBasics(log: WireLog, rows: RowSink, version: ProtocolVersion): void {
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
    `the client calls only methods the agent advertised (${NOT_ADVERTISED[version]})`,
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
  const methods: Record<string, unknown> = version === 1 ? V1_METHODS : METHODS;
  for (const e of sent) {
    const m = asMessage(e.message);
    const method = m.method as string;
    if (!Object.hasOwn(methods, method) || method === "$/cancel_request") continue;
    const r = schemaCheck(version, method, "params", m.params);
    if (!r.ok) invalid.push(`${describeEntry(e, 120)}: ${r.why}`);
  }
  rows.add(
    "client.messages-valid",
    "MANDATORY",
    `every request and notification the client sends matches the v${version} schema`,
    invalid.length === 0,
    invalid.length ? invalid.slice(0, 3) : [`${sent.length} checked`],
  );
}
