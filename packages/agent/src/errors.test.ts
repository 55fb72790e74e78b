import { LocalError } from "@acp-kit/protocol/jsonrpc";
import { describe, expect, it } from "vitest";
import {
  AgentDefinitionError,
  CapabilityNotSupportedError,
  DuplicateIdError,
  InvalidCursorError,
  SessionBusyError,
  SessionClosedError,
  TurnEndedError,
} from "./index.js";

describe("the agent's local errors", () => {
  const members: [Error, string][] = [
    [new TurnEndedError("turn.text"), "TurnEndedError"],
    [new SessionClosedError("s1"), "SessionClosedError"],
    [new AgentDefinitionError("bad"), "AgentDefinitionError"],
    [new DuplicateIdError("message", "m1"), "DuplicateIdError"],
    [new SessionBusyError("s1", "pid 7"), "SessionBusyError"],
    [new InvalidCursorError("x"), "InvalidCursorError"],
    [
      new CapabilityNotSupportedError("elicitation/create", "clientCapabilities.elicitation.form"),
      "CapabilityNotSupportedError",
    ],
  ];
  for (const [error, name] of members) {
    it(`${name} is a LocalError named ${name}`, () => {
      expect(error).toBeInstanceOf(LocalError);
      expect(error.name).toBe(name);
    });
  }
});
