// `#outgoing-validators` stays a subpath import that Node resolves at run time, so the node build
// switches as the tsc build does: validators unless `--conditions=production`; validation on
// by default unless that condition or NODE_ENV=production.
import { describe, expect, it } from "vitest";
import { type NodeRun, runInNode } from "../src/node-process.js";

interface Validation {
  readonly byDefault: boolean;
  /** What `validateOutgoing: true` gives: "ok" or the error's message. */
  readonly forced: string;
  readonly resolvedTo: string;
}

const probe = (run: NodeRun) =>
  runInNode<Validation>(
    `
    import { createClientSideConnection, defaultValidateOutgoing } from "@acp-kit/protocol";
    import { createInMemoryTransportPair } from "@acp-kit/protocol/jsonrpc";
    let forced = "ok";
    try { createClientSideConnection(createInMemoryTransportPair()[0], { validateOutgoing: true }); }
    catch (error) { forced = error.message; }
    const resolvedTo = (await loadedFiles()).filter((url) => url.includes("/outgoing-validators")).join(" ");
    report({ byDefault: defaultValidateOutgoing(), forced, resolvedTo });
  `,
    run,
  );

describe("#outgoing-validators in the node build", () => {
  it("plain node: the validators, used by default", () => {
    const r = probe({});
    expect(r).toMatchObject({ byDefault: true, forced: "ok" });
    expect(r.resolvedTo).toMatch(/\/dist\/node-bundle\/acp\/outgoing-validators\.js$/);
  });

  it("NODE_ENV=production: the validators are there, off by default, on when asked", () => {
    expect(probe({ env: { NODE_ENV: "production" } })).toMatchObject({ byDefault: false, forced: "ok" });
  });

  it("--conditions=production: no validators, and asking for them is a clear error", () => {
    const r = probe({ flags: ["--conditions=production"] });
    expect(r.byDefault).toBe(false);
    expect(r.forced).toMatch(/validateOutgoing: true, but this build .* `production` condition/);
    expect(r.resolvedTo).toMatch(/\/dist\/acp\/outgoing-validators\.production\.js$/);
  });
});
