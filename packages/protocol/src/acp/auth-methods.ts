/**
 * `auth/login` and `auth/logout` exist only when the agent advertises auth methods, and
 * `auth/login` takes only an advertised method of type `agent`: the other types (`terminal`, ...)
 * are run by the client itself, never through `auth/login`.
 */
import type { AuthMethod } from "../generated/types.js";
import type { MissingCapability } from "./missing-capability.js";

/** Why `method` cannot be called with these auth methods (`methodId` for `auth/login`). */
export function missingAuthMethod(
  method: string,
  authMethods: readonly AuthMethod[],
  methodId?: string,
): MissingCapability | undefined {
  if (authMethods.length === 0) return { method, side: "agent", requirement: "authMethods" };
  if (methodId === undefined) return undefined;
  const chosen = authMethods.find((candidate) => candidate.methodId === methodId);
  if (chosen === undefined) {
    return {
      method,
      side: "agent",
      requirement: `an auth method with methodId ${JSON.stringify(methodId)}`,
      path: "/methodId",
    };
  }
  if (chosen.type !== "agent") {
    return {
      method,
      side: "agent",
      requirement: `methodId ${JSON.stringify(methodId)} as an "agent" auth method`,
      path: "/methodId",
      detail: `it is of type ${JSON.stringify(chosen.type)}: run it client-side, never via auth/login`,
    };
  }
  return undefined;
}
