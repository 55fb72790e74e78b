/**
 * How the client answers what the agent asks: `session/request_permission` and
 * `elicitation/create` (each answered `cancelled` / `cancel` at once when the agent withdraws
 * it, the client cancels the session's work, or the connection closes), `elicitation/complete`,
 * and extension requests and notifications. The connection has already decoded the params and
 * refused an elicitation mode this client did not advertise.
 */
import type { AcpConnection, AcpRequestContext } from "@acp-kit/protocol";
import { type Disposable, RequestError } from "@acp-kit/protocol/jsonrpc";
import type {
  CreateElicitationRequest,
  CreateElicitationResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from "@acp-kit/protocol/types";
import type { AgentRequestContext, ClientHandlers } from "./client-types.js";
import type { SessionEndpoint, WorkRefs } from "./session.js";

const PERMISSION_CANCELLED: RequestPermissionResponse = { outcome: { outcome: "cancelled" } };
const ELICITATION_CANCEL: CreateElicitationResponse = { action: "cancel" };

/** The tool call / terminal a permission request is about, from its subject. */
function permissionRefs(request: RequestPermissionRequest): WorkRefs {
  const subject = request.subject;
  const refs: WorkRefs = {};
  switch (subject?.type) {
    case "tool_call":
      refs.toolCallId = subject.toolCall.toolCallId;
      break;
    case "command":
      if (typeof subject.toolCallId === "string") refs.toolCallId = subject.toolCallId;
      if (typeof subject.terminalId === "string") refs.terminalId = subject.terminalId;
      break;
  }
  return refs;
}

/** The session and tool call an elicitation is scoped to, when it names them. */
function elicitationScope(params: CreateElicitationRequest): { sessionId?: string; refs: WorkRefs } {
  const sessionId = "sessionId" in params && typeof params.sessionId === "string" ? params.sessionId : undefined;
  const toolCallId = "toolCallId" in params && typeof params.toolCallId === "string" ? params.toolCallId : undefined;
  return { ...(sessionId === undefined ? {} : { sessionId }), refs: toolCallId === undefined ? {} : { toolCallId } };
}

/**
 * Runs a handler for an agent request that waits on the user, answering `cancelledValue` at
 * once if the agent cancels the request, the client cancels the session's work, or the
 * connection closes — whichever comes first; the handler's signal then aborts.
 */
async function answerUnlessCancelled<T>(
  ctx: AcpRequestContext<"client">,
  runtime: SessionEndpoint | undefined,
  refs: WorkRefs,
  run: (context: AgentRequestContext) => T | Promise<T>,
  cancelledValue: T,
): Promise<T> {
  const controller = new AbortController();
  const untrack = runtime?.trackPendingRequest(controller, refs);
  const onPeerAbort = (): void => controller.abort(ctx.signal.reason);
  if (ctx.signal.aborted) controller.abort(ctx.signal.reason);
  else ctx.signal.addEventListener("abort", onPeerAbort, { once: true });
  try {
    return await new Promise<T>((resolve, reject) => {
      if (controller.signal.aborted) return resolve(cancelledValue);
      controller.signal.addEventListener("abort", () => resolve(cancelledValue), { once: true });
      Promise.resolve()
        .then(() => run({ signal: controller.signal, session: runtime?.session }))
        .then(resolve, reject);
    });
  } finally {
    untrack?.();
    ctx.signal.removeEventListener("abort", onPeerAbort);
    controller.abort();
  }
}

/** Registers the answers on `connection`; `session` finds the open session a request names. */
export function registerAgentRequests(
  connection: AcpConnection<"client">,
  handlers: ClientHandlers,
  session: (sessionId: string) => SessionEndpoint | undefined,
): Disposable[] {
  return [
    connection.onRequest("session/request_permission", (params, ctx) => {
      const runtime = session(params.sessionId);
      runtime?.permissionRequested(params);
      const handler = handlers.requestPermission;
      if (!handler) return PERMISSION_CANCELLED;
      const ask = (context: AgentRequestContext) => handler(params, context);
      return answerUnlessCancelled(ctx, runtime, permissionRefs(params), ask, PERMISSION_CANCELLED);
    }),
    connection.onRequest("elicitation/create", (params, ctx) => {
      const { sessionId, refs } = elicitationScope(params);
      const runtime = sessionId === undefined ? undefined : session(sessionId);
      const handler = handlers.createElicitation;
      if (!handler) return ELICITATION_CANCEL;
      const ask = (context: AgentRequestContext) => handler(params, context);
      return answerUnlessCancelled(ctx, runtime, refs, ask, ELICITATION_CANCEL);
    }),
    connection.onNotification("elicitation/complete", (params) => handlers.completeElicitation?.(params)),
    connection.onUnhandledExtRequest((params, ctx) => {
      const handler = handlers.extRequest;
      if (!handler) throw RequestError.methodNotFound(ctx.method);
      return handler(ctx.method, params, { signal: ctx.signal, session: undefined });
    }),
    connection.onUnhandledExtNotification((params, ctx) => {
      handlers.extNotification?.(ctx.method, params);
    }),
  ];
}
