import type { RequestPermissionRequest } from "@acp-kit/protocol/types";
import { describe, expect, it } from "vitest";
import { selectPermissionOption } from "./permission.js";

const request: Pick<RequestPermissionRequest, "options"> = {
  options: [
    { optionId: "no", name: "Reject", kind: "reject_once" },
    { optionId: "yes", name: "Allow", kind: "allow_once" },
    { optionId: "always", name: "Always", kind: "allow_always" },
  ],
};

describe("selectPermissionOption", () => {
  it.each([
    [["allow_once"], { outcome: "selected", optionId: "yes" }],
    [["allow_always", "allow_once"], { outcome: "selected", optionId: "always" }],
    [["reject_always", "reject_once"], { outcome: "selected", optionId: "no" }],
    [["reject_always"], { outcome: "cancelled" }],
    [[], { outcome: "cancelled" }],
  ] as const)("kinds %j → %j", (kinds, outcome) => {
    expect(selectPermissionOption(request, ...kinds)).toEqual({ outcome });
  });
});
