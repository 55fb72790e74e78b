/**
 * A fake agent that follows a script (see scenario.ts) instead of a turn engine, so it can
 * also misbehave on purpose. It speaks raw JSON-RPC: what the script says goes on the wire
 * as written. Everything both ways is kept in `log`.
 */
import { Connection, RequestError, type Transport } from "@acp-kit/protocol/jsonrpc";
import { type AgentScript, type AgentStep, type Bindings, bind } from "./scenario.js";
import { WireLog } from "./wire-log.js";

export interface ScriptedAgentOptions {
  /** Called for a `die` step (default: close the connection). A process exits here. */
  onDie?: () => void;
  /** Longest wait of a `waitFor` step without its own `timeoutMs` (default 10 s). */
  waitTimeoutMs?: number;
}

/** The connection writes a handler's answer a few microtasks later: let it, so wire order is script order. */
const writtenResponse = () => new Promise((resolve) => setTimeout(resolve, 0));

const DEFAULT_INITIALIZE = {
  protocolVersion: 2,
  info: { name: "scripted-agent", version: "1.0.0" },
  capabilities: { session: {} },
};

export class ScriptedAgent {
  readonly log = new WireLog();
  readonly connection: Connection;
  readonly #script: AgentScript;
  readonly #options: ScriptedAgentOptions;
  #sessions = 0;
  #prompts = 0;
  /** Sessions the client cancelled, and who waits for that. */
  readonly #cancelled = new Set<string>();
  readonly #cancelWaiters = new Map<string, (() => void)[]>();

  constructor(transport: Transport, script: AgentScript, options: ScriptedAgentOptions = {}) {
    this.#script = script;
    this.#options = options;
    this.connection = new Connection(transport, { tap: this.log.tapFor("agent") });
    const c = this.connection;
    c.onRequest("initialize", () => script.initialize ?? DEFAULT_INITIALIZE);
    c.onRequest("session/new", () => {
      this.#refuse("session/new");
      return { sessionId: `sess_${++this.#sessions}`, ...script.newSession };
    });
    c.onRequest("session/prompt", (params) => this.#prompt(params as { sessionId: string; prompt: unknown }));
    c.onNotification("session/cancel", (params) => {
      const sessionId = String((params as { sessionId?: unknown })?.sessionId);
      this.#cancelled.add(sessionId);
      for (const wake of this.#cancelWaiters.get(sessionId) ?? []) wake();
      this.#cancelWaiters.delete(sessionId);
    });
    c.onUnhandledRequest((_params, context) => {
      this.#refuse(context.method);
      const answers = script.answers ?? {};
      if (Object.hasOwn(answers, context.method)) return answers[context.method];
      throw RequestError.methodNotFound(context.method);
    });
    c.onUnhandledNotification(() => {});
    c.closed.then(() => this.log.close());
  }

  /** Throws the script's error for `method`, if it has one. */
  #refuse(method: string): void {
    const error = this.#script.errors?.[method];
    if (error !== undefined) throw new RequestError(error.code, error.message, error.data);
  }

  listen(): this {
    this.connection.listen();
    return this;
  }

  close(): Promise<void> {
    return this.connection.close();
  }

  #prompt(params: { sessionId: string; prompt: unknown }): Promise<unknown> {
    const n = ++this.#prompts;
    const lists = this.#script.prompts;
    const steps = lists[Math.min(n, lists.length) - 1] ?? [];
    const bindings: Bindings = { sessionId: params.sessionId, messageId: `msg_user_${n}`, prompt: params.prompt, n };
    this.#cancelled.delete(params.sessionId);
    return new Promise((resolve, reject) => {
      let answered = false;
      const answer = (ok: boolean, value: unknown) => {
        if (answered) return;
        answered = true;
        if (ok) resolve(value);
        else reject(value);
      };
      this.#run(steps, bindings, answer).then(
        () => answer(true, { messageId: bindings.messageId }),
        (error: unknown) => answer(false, error),
      );
    });
  }

  async #run(steps: AgentStep[], b: Bindings, answer: (ok: boolean, value: unknown) => void): Promise<void> {
    const named = new Map<string, Promise<unknown>>();
    for (const step of steps) {
      if (this.connection.isClosed) return;
      if ("update" in step) {
        await this.connection.notify("session/update", { sessionId: b.sessionId, update: bind(step.update, b) });
      } else if ("respond" in step) {
        answer(true, bind(step.respond, b));
        await writtenResponse();
      } else if ("respondError" in step) {
        const { code, message, data } = step.respondError;
        answer(false, new RequestError(code, message, data));
        await writtenResponse();
      } else if ("request" in step) {
        const call = this.connection.request(step.request, bind(step.params, b)).catch((error: unknown) => error);
        if (step.name !== undefined) named.set(step.name, call);
        if (step.wait !== false) await call;
      } else if ("waitFor" in step) {
        const timeout = step.timeoutMs ?? this.#options.waitTimeoutMs ?? 10_000;
        const pending =
          step.waitFor === "session/cancel"
            ? this.#cancelOf(b.sessionId)
            : (named.get(step.waitFor) ?? Promise.resolve());
        await Promise.race([pending, new Promise((r) => setTimeout(r, timeout).unref?.())]);
      } else if ("sleep" in step) {
        await new Promise((r) => setTimeout(r, step.sleep));
      } else if ("die" in step) {
        if (this.#options.onDie) this.#options.onDie();
        else await this.connection.close();
        return;
      }
    }
  }

  #cancelOf(sessionId: string): Promise<void> {
    if (this.#cancelled.has(sessionId)) return Promise.resolve();
    return new Promise((resolve) => {
      const list = this.#cancelWaiters.get(sessionId) ?? [];
      list.push(resolve);
      this.#cancelWaiters.set(sessionId, list);
    });
  }
}

/** Starts a scripted agent on `transport`. */
export function scriptedAgent(
  transport: Transport,
  script: AgentScript,
  options?: ScriptedAgentOptions,
): ScriptedAgent {
  return new ScriptedAgent(transport, script, options).listen();
}
