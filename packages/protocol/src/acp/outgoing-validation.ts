/**
 * Whether to validate what we send by default: on, unless the host says it runs in production.
 * Read through `globalThis` so the package needs no Node types and runs where `process` is absent.
 */
export function defaultValidateOutgoing(): boolean {
  const host = globalThis as { process?: { env?: Record<string, string | undefined> } };
  return host.process?.env?.NODE_ENV !== "production";
}
