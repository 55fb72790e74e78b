import { afterEach, describe, expect, it } from "vitest";
import { createInMemoryTransportPair } from "../jsonrpc/index.js";
import { createClientSideConnection } from "./acp-connection.js";
import { defaultValidateOutgoing, outgoingValidationAvailable } from "./outgoing-validation.js";

const saved = process.env.NODE_ENV;
afterEach(() => {
  process.env.NODE_ENV = saved;
});

describe("outgoing validation switch", () => {
  it("has the validators outside the `production` condition (Node never sets it)", () => {
    expect(outgoingValidationAvailable).toBe(true);
  });

  it("validates by default unless NODE_ENV is production", () => {
    for (const [env, expected] of [
      ["production", false],
      ["development", true],
      ["test", true],
      [undefined, true],
    ] as const) {
      if (env === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = env;
      expect(defaultValidateOutgoing(), `NODE_ENV=${env}`).toBe(expected);
      const [a] = createInMemoryTransportPair();
      expect(createClientSideConnection(a).validatesOutgoing).toBe(expected);
    }
  });

  it("honours an explicit validateOutgoing: true in a production run", () => {
    process.env.NODE_ENV = "production";
    const [a] = createInMemoryTransportPair();
    expect(createClientSideConnection(a, { validateOutgoing: true }).validatesOutgoing).toBe(true);
  });
});
