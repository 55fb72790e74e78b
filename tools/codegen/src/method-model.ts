import { typeNameOf } from "./names.ts";
import type { AcpSchema } from "./schema-source.ts";

export type MethodHandler = "agent" | "client" | "both";
export type MethodKind = "request" | "notification";
/** The map a method belongs to in generated/methods.ts. */
export type MethodGroup =
  | "AgentRequests"
  | "ClientRequests"
  | "AgentNotifications"
  | "ClientNotifications"
  | "ProtocolNotifications";

export interface MethodSpec {
  readonly method: string;
  readonly handledBy: MethodHandler;
  readonly kind: MethodKind;
  /** TypeScript name of the params type. */
  readonly params: string;
  /** TypeScript name of the result type (requests only). */
  readonly result?: string;
  readonly group: MethodGroup;
}

const SIDES: Readonly<Record<string, MethodHandler>> = { agent: "agent", client: "client", protocol: "both" };

interface MethodDefs {
  side?: string;
  request?: string;
  response?: string;
  notification?: string;
}

/**
 * Reads every method from the `x-method`/`x-side` annotations on the `$defs`: a method is a
 * request when it has a `*Request` and a `*Response` def, a notification when it has a
 * `*Notification` def. `x-side` names the side that handles it (`protocol`: either side).
 * Anything that does not fit fails loudly, so a schema change cannot silently drop a method.
 * Sorted by method name.
 */
export function methodsOf(schema: AcpSchema): MethodSpec[] {
  const byMethod = new Map<string, MethodDefs>();
  for (const [defName, def] of Object.entries(schema.$defs)) {
    const method = def["x-method"];
    if (method === undefined) continue;
    const side = def["x-side"];
    if (typeof method !== "string" || typeof side !== "string") {
      throw new Error(`codegen: $defs.${defName} has a non-string x-method or x-side`);
    }
    const entry = byMethod.get(method) ?? {};
    byMethod.set(method, entry);
    if (entry.side !== undefined && entry.side !== side) {
      throw new Error(`codegen: method ${method} has conflicting x-side values (${entry.side}, ${side})`);
    }
    entry.side = side;
    const role = defName.endsWith("Request")
      ? "request"
      : defName.endsWith("Response")
        ? "response"
        : defName.endsWith("Notification")
          ? "notification"
          : undefined;
    if (role === undefined)
      throw new Error(
        `codegen: cannot tell whether $defs.${defName} (x-method ${method}) is a request, response or notification`,
      );
    if (entry[role] !== undefined)
      throw new Error(`codegen: method ${method} has two ${role} defs (${entry[role]}, ${defName})`);
    entry[role] = defName;
  }
  const specs: MethodSpec[] = [];
  for (const [method, defs] of byMethod) {
    const handledBy = SIDES[defs.side ?? ""];
    if (handledBy === undefined)
      throw new Error(`codegen: method ${method} has unknown x-side ${JSON.stringify(defs.side)}`);
    if (defs.notification !== undefined) {
      if (defs.request !== undefined || defs.response !== undefined)
        throw new Error(`codegen: method ${method} is both a notification and a request`);
      const group: MethodGroup =
        handledBy === "agent"
          ? "AgentNotifications"
          : handledBy === "client"
            ? "ClientNotifications"
            : "ProtocolNotifications";
      specs.push({ method, handledBy, kind: "notification", params: typeNameOf(defs.notification), group });
    } else {
      if (defs.request === undefined || defs.response === undefined)
        throw new Error(
          `codegen: request ${method} lacks a ${defs.request === undefined ? "Request" : "Response"} def`,
        );
      if (handledBy === "both")
        throw new Error(`codegen: request ${method} is handled by both sides; the method tables have no such group`);
      const group: MethodGroup = handledBy === "agent" ? "AgentRequests" : "ClientRequests";
      specs.push({
        method,
        handledBy,
        kind: "request",
        params: typeNameOf(defs.request),
        result: typeNameOf(defs.response),
        group,
      });
    }
  }
  return specs.sort((a, b) => (a.method < b.method ? -1 : a.method > b.method ? 1 : 0));
}
