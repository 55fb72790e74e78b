import type {
  PermissionOptionKind,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from "@acp-kit/protocol/types";

/**
 * Answers a `session/request_permission` by choosing the first offered option whose `kind` is
 * one of `kinds` (in your order of preference), or `cancelled` when none is offered. The
 * answer's shape is `{ outcome: { outcome: "selected", optionId } }`.
 *
 * @example
 * ```ts
 * import { connectToAgent, selectPermissionOption } from "@acp-kit/client";
 *
 * const client = await connectToAgent(transport, {
 *   info: { name: "my-client", version: "1.0.0" },
 *   // allow once when offered, else reject once, else cancel
 *   handlers: { requestPermission: (request) => selectPermissionOption(request, "allow_once", "reject_once") },
 * });
 * ```
 */
export function selectPermissionOption(
  request: Pick<RequestPermissionRequest, "options">,
  ...kinds: PermissionOptionKind[]
): RequestPermissionResponse {
  for (const kind of kinds) {
    const option = request.options.find((candidate) => candidate.kind === kind);
    if (option) return { outcome: { outcome: "selected", optionId: option.optionId } };
  }
  return { outcome: { outcome: "cancelled" } };
}
