import { describe, expect, it } from "vitest";
import { CapabilityNotSupportedError } from "../acp/errors.js";
import { TranscriptError } from "../tap/transcript.js";
import { ConnectionError, RequestAbortedError, RequestError } from "./errors.js";
import { LocalError } from "./local-error.js";

describe("LocalError (the family of local errors)", () => {
  const members: [Error, string][] = [
    [ConnectionError.closed(), "ConnectionError"],
    [new RequestAbortedError("m", 1, undefined), "AbortError"],
    [
      new CapabilityNotSupportedError("session/delete", "agentCapabilities.session.delete"),
      "CapabilityNotSupportedError",
    ],
    [new TranscriptError(3, "not JSON"), "TranscriptError"],
  ];
  for (const [error, name] of members) {
    it(`${name} is one, with its literal name`, () => {
      expect(error).toBeInstanceOf(LocalError);
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe(name);
    });
  }

  it("leaves the wire error out", () => {
    expect(RequestError.internalError()).not.toBeInstanceOf(LocalError);
  });

  it("words a refusal after the peer that handles the method", () => {
    expect(new CapabilityNotSupportedError("session/delete", "agentCapabilities.session.delete").message).toBe(
      "session/delete refused locally: the agent does not advertise agentCapabilities.session.delete; nothing was sent",
    );
    expect(
      new CapabilityNotSupportedError(
        "elicitation/create",
        "clientCapabilities.elicitation.url",
        "url-mode elicitation",
      ).message,
    ).toBe(
      "elicitation/create refused locally: the client does not advertise clientCapabilities.elicitation.url (url-mode elicitation); nothing was sent",
    );
    expect(new CapabilityNotSupportedError("_vendor/x", "a vendor capability").message).toMatch(/the peer does not/);
  });
});
