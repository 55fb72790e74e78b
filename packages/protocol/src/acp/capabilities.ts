/**
 * What each request needs its handler's side to have advertised at `initialize`: one table keyed
 * by wire method, for the requests of both directions. The typed connection consults it before
 * every request it sends (a local refusal, nothing sent) and every request it handles (answered
 * -32601 or -32602, see missing-capability.ts), once `initialize` told what each side advertised.
 * The connection reads the table through side-tables.ts, typed by the methods of its side.
 */
import type { AgentRequests, ClientRequests } from "../generated/methods.js";
import type { ClientCapabilities, PromptRequest, SessionCapabilities } from "../generated/types.js";
import { type Advertised, isAdvertised } from "./advertised.js";
import { missingAuthMethod } from "./auth-methods.js";
import type { MissingCapability } from "./missing-capability.js";
import { promptContentProblem } from "./prompt-content.js";
import { missingEnvironment } from "./session-environment.js";

/** Every request of either side, keyed by wire method. */
export type AcpRequests = AgentRequests & ClientRequests;

type Requirement<M extends keyof AcpRequests> = (
  params: AcpRequests[M]["params"],
  advertised: Advertised,
) => MissingCapability | undefined;

/** The agent's session capabilities when it advertises `session`, else what is missing. */
function sessionOf(method: string, advertised: Advertised): SessionCapabilities | MissingCapability | undefined {
  const agent = advertised.agent;
  if (agent === undefined) return undefined;
  const session = agent.capabilities.session;
  if (session === undefined || session === null || !isAdvertised(session)) {
    return { method, side: "agent", requirement: "agentCapabilities.session", capability: "session" };
  }
  return session;
}

function isMissing(value: SessionCapabilities | MissingCapability): value is MissingCapability {
  return "requirement" in value && "side" in value;
}

/** A session method: needs `session`, then whatever `more` says of the params. */
function sessionMethod<M extends keyof AcpRequests>(
  method: M,
  more?: (params: AcpRequests[M]["params"], session: SessionCapabilities) => MissingCapability | undefined,
): Requirement<M> {
  return (params, advertised) => {
    const session = sessionOf(method, advertised);
    if (session === undefined || isMissing(session)) return session;
    return more?.(params, session);
  };
}

function promptRequirement(params: PromptRequest, session: SessionCapabilities): MissingCapability | undefined {
  const problem = promptContentProblem(params.prompt, session.prompt);
  if (problem === undefined || problem.kind === "empty" || problem.kind === "not_a_block") return undefined;
  const path = `/prompt/${problem.index}/type`;
  if (problem.kind === "unsupported_type") {
    const requirement = `support for ${JSON.stringify(problem.type)} content blocks`;
    return { method: "session/prompt", side: "agent", requirement, path, detail: `prompt[${problem.index}]` };
  }
  return {
    method: "session/prompt",
    side: "agent",
    requirement: `agentCapabilities.session.prompt.${problem.capability}`,
    capability: `session.prompt.${problem.capability}`,
    path,
    detail: `prompt[${problem.index}] is a ${JSON.stringify(problem.type)} block`,
  };
}

/** `elicitation/create` in `mode` needs the client's `elicitation.<mode>` (`form`, `url`; no other mode). */
export function missingElicitationMode(mode: string, client: ClientCapabilities): MissingCapability | undefined {
  const modes = client.elicitation;
  const marker = mode === "form" ? modes?.form : mode === "url" ? modes?.url : undefined;
  if (isAdvertised(marker)) return undefined;
  return {
    method: "elicitation/create",
    side: "client",
    requirement: `clientCapabilities.elicitation.${mode}`,
    capability: `elicitation.${mode}`,
    path: "/mode",
  };
}

/** The table: each request that needs something advertised, keyed by wire method. */
export const REQUIREMENTS: { readonly [M in keyof AcpRequests]?: Requirement<M> } = {
  "session/new": sessionMethod("session/new", (params, session) => missingEnvironment("session/new", params, session)),
  "session/resume": sessionMethod("session/resume", (params, session) =>
    missingEnvironment("session/resume", params, session),
  ),
  "session/list": sessionMethod("session/list"),
  "session/close": sessionMethod("session/close"),
  "session/delete": sessionMethod("session/delete", (_params, session) =>
    isAdvertised(session.delete)
      ? undefined
      : {
          method: "session/delete",
          side: "agent",
          requirement: "agentCapabilities.session.delete",
          capability: "session.delete",
        },
  ),
  "session/prompt": sessionMethod("session/prompt", promptRequirement),
  "session/set_config_option": sessionMethod("session/set_config_option"),
  "tool_call/cancel": sessionMethod("tool_call/cancel"),
  "terminal/cancel": sessionMethod("terminal/cancel"),
  "auth/login": (params, advertised) =>
    advertised.agent && missingAuthMethod("auth/login", advertised.agent.authMethods, params.methodId),
  "auth/logout": (_params, advertised) =>
    advertised.agent && missingAuthMethod("auth/logout", advertised.agent.authMethods),
  "elicitation/create": (params, advertised) =>
    advertised.client && missingElicitationMode(String(params.mode), advertised.client),
};
