/**
 * A fake client for driving an agent step by step: raw JSON-RPC (no store, no repair), every
 * message both ways in `log`, and a permission policy that can also hold requests open.
 */
import { Connection, RequestError, type Transport } from "@acp-kit/protocol/jsonrpc";
import { asMessage, is, type WireEntry, WireLog } from "./wire-log.js";

export interface PermissionOption {
  optionId: string;
  kind?: string;
  name?: string;
}

/**
 * How `session/request_permission` is answered: an option kind to pick (`allow_once`,
 * `reject_once`, ...; the first option when none has it), `cancelled`, or `hold` (left open
 * until `answerPermission`).
 */
export type PermissionPolicy = "allow" | "reject" | "cancelled" | "hold";

export interface ScriptedClientOptions {
  permissions?: PermissionPolicy;
  /** The `initialize` params (default: protocol 2, no capabilities). */
  initialize?: Record<string, unknown>;
}

export interface PromptCall {
  /** The log entry of the `session/prompt` request. */
  readonly request: WireEntry;
  /** Settles with the agent's answer (never rejects). */
  readonly answered: Promise<{ ok: true; result: unknown } | { ok: false; error: unknown }>;
}

interface HeldPermission {
  id: unknown;
  params: { options?: PermissionOption[] };
  resolve: (result: unknown) => void;
}

export class ScriptedClient {
  readonly log = new WireLog();
  readonly connection: Connection;
  permissions: PermissionPolicy;
  readonly #options: ScriptedClientOptions;
  readonly #held: HeldPermission[] = [];

  constructor(transport: Transport, options: ScriptedClientOptions = {}) {
    this.#options = options;
    this.permissions = options.permissions ?? "allow";
    this.connection = new Connection(transport, { tap: this.log.tapFor("client") });
    this.connection.onRequest("session/request_permission", (params, context) =>
      this.#permission(params as HeldPermission["params"], context.id),
    );
    this.connection.onRequest("elicitation/create", () => ({ action: "cancel" }));
    this.connection.onUnhandledRequest((_params, context) => {
      throw RequestError.methodNotFound(context.method);
    });
    this.connection.onUnhandledNotification(() => {});
    this.connection.closed.then(() => this.log.close());
    this.connection.listen();
  }

  initialize(params?: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.connection.request(
      "initialize",
      params ??
        this.#options.initialize ?? {
          protocolVersion: 2,
          info: { name: "acp-kit-check", version: "1.0.0" },
          capabilities: {},
        },
    );
  }

  async newSession(cwd: string): Promise<string> {
    const result = asMessage({ result: await this.connection.request("session/new", { cwd }) }).result as {
      sessionId?: unknown;
    };
    if (typeof result?.sessionId !== "string")
      throw new Error(`session/new answered without a sessionId: ${JSON.stringify(result)}`);
    return result.sessionId;
  }

  /** Sends `session/prompt` with `prompt` (text becomes one text block). */
  prompt(sessionId: string, prompt: string | unknown[]): PromptCall {
    const content = typeof prompt === "string" ? [{ type: "text", text: prompt }] : prompt;
    const answered = this.connection.request("session/prompt", { sessionId, prompt: content }).then(
      (result) => ({ ok: true as const, result }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    // The tap saw the request synchronously: it is the last client entry.
    const request = this.log.entries.findLast(
      (e) => e.from === "client" && is.request("session/prompt")(e),
    ) as WireEntry;
    return { request, answered };
  }

  cancel(sessionId: string): Promise<void> {
    return this.connection.notify("session/cancel", { sessionId });
  }

  /** Permission requests held open by the `hold` policy. */
  get heldPermissions(): number {
    return this.#held.length;
  }

  /** Answers every held permission request with `outcome` (`cancelled`, or an option kind to select). */
  answerHeld(outcome: "cancelled" | "allow" | "reject"): void {
    for (const held of this.#held.splice(0)) held.resolve(this.#outcome(held.params, outcome));
  }

  /** The first `state_update` idle of `sessionId` after `after`. */
  waitForIdle(sessionId: string, after: number, timeoutMs: number): Promise<WireEntry | undefined> {
    return this.log.waitFor((e) => e.from === "agent" && is.state("idle", sessionId)(e), { after, timeoutMs });
  }

  close(): Promise<void> {
    return this.connection.close();
  }

  #permission(params: HeldPermission["params"], id: unknown): unknown {
    if (this.permissions !== "hold") return this.#outcome(params, this.permissions);
    return new Promise((resolve) => this.#held.push({ id, params, resolve }));
  }

  #outcome(params: HeldPermission["params"], policy: "allow" | "reject" | "cancelled"): unknown {
    if (policy === "cancelled") return { outcome: { outcome: "cancelled" } };
    const options = Array.isArray(params?.options) ? params.options : [];
    const wanted = policy === "allow" ? ["allow_once", "allow_always"] : ["reject_once", "reject_always"];
    const option = options.find((o) => wanted.includes(String(o.kind))) ?? options[0];
    if (option === undefined) return { outcome: { outcome: "cancelled" } };
    return { outcome: { outcome: "selected", optionId: option.optionId } };
  }
}
