/**
 * The scenario language of the scripted client: steps run in order against an agent.
 *
 *   { initialize: {...} | true }      send initialize (params, or the default ones)
 *   { newSession: { cwd } }           session/new; later steps can use `$sessionId`
 *   { prompt: "text" | blocks, wait } session/prompt; `wait`: "idle" (default), "response" or false
 *   { cancel: true }                  session/cancel for the session
 *   { permissions: "allow" | "reject" | "cancelled" | "hold" }   how permission requests are answered from now on
 *   { answerHeld: "allow" | "reject" | "cancelled" }             answer the requests held so far
 *   { waitFor: "idle" | "<method>", timeoutMs }                  wait for the agent's next idle / message
 *   { request: "m", params: {...} }  any request (its error is recorded, not thrown)
 *   { sleep: ms }
 *   { die: true }                     close the connection abruptly
 */
import type { Transport } from "@acp-kit/protocol/jsonrpc";
import { type PermissionPolicy, ScriptedClient, type ScriptedClientOptions } from "./scripted-client.js";
import { asMessage } from "./wire-log.js";

export type ClientStep =
  | { initialize: Record<string, unknown> | true }
  | { newSession: { cwd: string } }
  | { prompt: string | unknown[]; wait?: "idle" | "response" | false }
  | { cancel: true }
  | { permissions: PermissionPolicy }
  | { answerHeld: "allow" | "reject" | "cancelled" }
  | { waitFor: string; timeoutMs?: number }
  | { request: string; params?: unknown }
  | { sleep: number }
  | { die: true };

export interface ClientScriptOptions extends ScriptedClientOptions {
  /** Longest wait of one step (default 10 s); a step that times out throws. */
  stepTimeoutMs?: number;
}

function bindSession(value: unknown, sessionId: string | undefined): unknown {
  if (value === "$sessionId") return sessionId;
  if (Array.isArray(value)) return value.map((v) => bindSession(v, sessionId));
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bindSession(v, sessionId)]));
  return value;
}

/** Runs `steps` and returns the client (its `log` holds the whole conversation). */
export async function runClientScript(
  transport: Transport,
  steps: ClientStep[],
  options: ClientScriptOptions = {},
): Promise<ScriptedClient> {
  const client = new ScriptedClient(transport, options);
  const timeoutMs = options.stepTimeoutMs ?? 10_000;
  let sessionId: string | undefined;
  const needSession = (): string => {
    if (sessionId === undefined) throw new Error("this step needs a { newSession } step before it");
    return sessionId;
  };
  const within = async <T>(what: string, promise: Promise<T>): Promise<T> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`step timed out after ${timeoutMs} ms: ${what}`)), timeoutMs);
    });
    try {
      return await Promise.race([promise, timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
  for (const step of steps) {
    if ("initialize" in step)
      await within("initialize", client.initialize(step.initialize === true ? undefined : step.initialize));
    else if ("newSession" in step) sessionId = await within("session/new", client.newSession(step.newSession.cwd));
    else if ("prompt" in step) {
      const call = client.prompt(needSession(), step.prompt);
      const wait = step.wait ?? "idle";
      if (wait === "response") await within("the prompt response", call.answered);
      else if (wait === "idle") {
        const idle = await client.waitForIdle(needSession(), call.request.seq, timeoutMs);
        if (idle === undefined) throw new Error(`step timed out after ${timeoutMs} ms: the turn's idle`);
      }
    } else if ("cancel" in step) await client.cancel(needSession());
    else if ("permissions" in step) client.permissions = step.permissions;
    else if ("answerHeld" in step) client.answerHeld(step.answerHeld);
    else if ("waitFor" in step) {
      const after = client.log.lastSeq;
      const found = await client.log.waitFor(
        (e) =>
          e.from === "agent" &&
          (step.waitFor === "idle"
            ? asMessage(e.message).params?.update?.state === "idle"
            : asMessage(e.message).method === step.waitFor),
        { after, timeoutMs: step.timeoutMs ?? timeoutMs },
      );
      if (found === undefined) throw new Error(`step timed out: waiting for ${step.waitFor}`);
    } else if ("request" in step)
      await within(
        step.request,
        client.connection.request(step.request, bindSession(step.params, sessionId)).catch(() => undefined),
      );
    else if ("sleep" in step) await new Promise((r) => setTimeout(r, step.sleep));
    else if ("die" in step) {
      await client.close();
      break;
    }
  }
  return client;
}
