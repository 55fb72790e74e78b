/** Automatic answers to permission requests (`--yes` / `--no`). Pure. */
import type { PermissionOption, RequestPermissionResponse } from "@acp-kit/protocol/types";

const ALLOW = ["allow_once", "allow_always"];
const REJECT = ["reject_once", "reject_always"];

/**
 * The option to pick automatically: for `allow` the first one-time approval (else a permanent
 * one), for `reject` the first one-time rejection (else a permanent one). Undefined when the
 * request offers no such option (answer `cancelled`: never approve by guessing).
 */
export function automaticChoice(
  options: readonly PermissionOption[],
  policy: "allow" | "reject",
): PermissionOption | undefined {
  const kinds = policy === "allow" ? ALLOW : REJECT;
  for (const kind of kinds) {
    const option = options.find((o) => o.kind === kind);
    if (option) return option;
  }
  return undefined;
}

export function selected(option: PermissionOption | undefined): RequestPermissionResponse {
  return option
    ? { outcome: { outcome: "selected", optionId: option.optionId } }
    : { outcome: { outcome: "cancelled" } };
}
