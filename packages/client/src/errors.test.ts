import { CapabilityNotSupportedError as FromProtocol } from "@acp-kit/protocol";
import { LocalError } from "@acp-kit/protocol/jsonrpc";
import { describe, expect, it } from "vitest";
import { CapabilityNotSupportedError, ResumeRefusedError, UpdateBufferOverflowError } from "./index.js";

describe("the client's local errors", () => {
  it("refuses with the one CapabilityNotSupportedError the agent SDK throws too", () => {
    expect(CapabilityNotSupportedError).toBe(FromProtocol);
  });

  const members: [Error, string][] = [
    [
      new CapabilityNotSupportedError("session/delete", "agentCapabilities.session.delete"),
      "CapabilityNotSupportedError",
    ],
    [new UpdateBufferOverflowError(10), "UpdateBufferOverflowError"],
    [new ResumeRefusedError("s1", "unknown_session", "the agent does not know it", undefined), "ResumeRefusedError"],
  ];
  for (const [error, name] of members) {
    it(`${name} is a LocalError named ${name}`, () => {
      expect(error).toBeInstanceOf(LocalError);
      expect(error.name).toBe(name);
    });
  }
});
