import type { PermissionOption } from "@acp-kit/protocol/types";
import { describe, expect, it } from "vitest";
import { automaticChoice, selected } from "./permission-policy.js";

const options: PermissionOption[] = [
  { optionId: "always", name: "Always", kind: "allow_always" },
  { optionId: "once", name: "Once", kind: "allow_once" },
  { optionId: "never", name: "Never", kind: "reject_always" },
];

describe("automatic permission answers", () => {
  it("prefers one-time options", () => {
    expect(automaticChoice(options, "allow")?.optionId).toBe("once");
    expect(automaticChoice(options, "reject")?.optionId).toBe("never");
  });
  it("answers cancelled rather than guessing when no option fits", () => {
    const onlyAllow = options.slice(0, 2);
    expect(automaticChoice(onlyAllow, "reject")).toBeUndefined();
    expect(selected(undefined)).toEqual({ outcome: { outcome: "cancelled" } });
    expect(selected(options[1])).toEqual({ outcome: { outcome: "selected", optionId: "once" } });
  });
});
