/**
 * What every scenario of `acp-kit check agent` shares: its context, the version negotiation (asks
 * for 2, accepts 1) and the session it opens, and the helpers that read the wire log.
 */
import type { ScriptedClient, WireEntry } from "@acp-kit/testkit";
import type { OpenedAgent } from "../agent-target.js";
import type { RowSink } from "../report.js";
import {
  CHECK_INITIALIZE,
  describeAuthMethods,
  isAuthRefusal,
  type Negotiated,
  newSession,
  readInitialize,
} from "./negotiated.js";
import type { CheckAgentOptions } from "./options.js";

export interface ScenarioContext {
  agent: OpenedAgent;
  client: ScriptedClient;
  rows: RowSink;
  options: CheckAgentOptions;
  /** What `initialize` negotiated, once it was answered. */
  negotiated?: Negotiated;
}

export interface Scenario {
  name: string;
  description: string;
  run(context: ScenarioContext): Promise<void>;
}

/** session/new was refused until the client authenticates: the scenario's turns cannot run. */
export class AuthRequired extends Error {
  constructor(
    readonly methods: unknown[],
    readonly refusal: unknown,
  ) {
    super(`requires authentication: methods ${describeAuthMethods(methods)}`);
  }
}

/** initialize, read for the version the agent answered; later rows are stamped with that version. */
export async function negotiate(ctx: ScenarioContext): Promise<Negotiated> {
  const result = await ctx.client.initialize(CHECK_INITIALIZE);
  const negotiated = readInitialize(result);
  if (negotiated === undefined)
    throw new Error(
      `the agent answered initialize with protocolVersion ${JSON.stringify(result.protocolVersion)}, which the checker cannot speak (it asked for 2 and accepts 1)`,
    );
  ctx.negotiated = negotiated;
  ctx.rows.version = negotiated.version;
  return negotiated;
}

/** initialize + session/new; throws when the agent cannot get that far (`AuthRequired` for an auth refusal). */
export async function open(ctx: ScenarioContext): Promise<{ negotiated: Negotiated; sessionId: string }> {
  const negotiated = await negotiate(ctx);
  try {
    return { negotiated, sessionId: await newSession(ctx.client, negotiated, ctx.options.cwd) };
  } catch (error) {
    if (isAuthRefusal(error)) throw new AuthRequired(negotiated.authMethods, error);
    throw error;
  }
}

export const lastOf = (entries: WireEntry[]) => entries[entries.length - 1];
export const lastFromAgent = (client: ScriptedClient) =>
  lastOf(client.log.filter((e) => e.from === "agent")) as WireEntry | undefined;
export const judgeOptions = (ctx: ScenarioContext, negotiated: Negotiated, prefix: string) => ({
  ...ctx.options,
  version: negotiated.version,
  prefix,
});
