/**
 * The engine's errors are recognized by their brand, not only by their prototype chain: with
 * `@acp-kit/agent` loaded twice (its source entry and its bundled `node` entry here, as with two
 * entry points or an installed copy beside a bundled one), an error thrown by one copy is an
 * instance of the other's class, and the engine of one copy tells apart what a store built
 * against the other throws.
 */
import { RequestError } from "@acp-kit/protocol/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import * as source from "../src/index.js";
import { connect } from "./support/harness.js";

// The package's `node` entry, built by `pnpm build` (tests run after it): the same API, another copy.
const BUNDLE = "../dist/node-bundle/index.js";
const bundled = (await import(BUNDLE)) as typeof source;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const errorsOf = (copy: typeof source) =>
  [
    new copy.SessionBusyError("s", "held by B"),
    new copy.InvalidCursorError("x"),
    new copy.SessionStoreError("store down", ["s"]),
    new copy.TurnEndedError("message.append"),
    new copy.SessionClosedError("s"),
    new copy.AgentDefinitionError("bad"),
    new copy.DuplicateIdError("message", "m"),
    new copy.ClientRequestError("session/request_permission", { code: -32601, message: "Method not found" }),
  ] as const;

describe("errors recognized across two copies of the package", () => {
  it("the two entries are two copies (distinct classes)", () => {
    expect(bundled.SessionBusyError).not.toBe(source.SessionBusyError);
  });

  it.each([
    ["bundled error, source class", bundled, source],
    ["source error, bundled class", source, bundled],
  ] as const)("%s: instanceof holds for the same class and only for it", (_, from, to) => {
    const errors = errorsOf(from as typeof source);
    const classes = [
      to.SessionBusyError,
      to.InvalidCursorError,
      to.SessionStoreError,
      to.TurnEndedError,
      to.SessionClosedError,
      to.AgentDefinitionError,
      to.DuplicateIdError,
      to.ClientRequestError,
    ];
    errors.forEach((error, i) => {
      classes.forEach((cls, j) => {
        expect(error instanceof cls, `${error.name} instanceof ${cls.name}`).toBe(i === j);
      });
    });
  });

  it("a subclass is not matched by the brand of its base", () => {
    class HeldElsewhere extends source.SessionBusyError {}
    expect(new bundled.SessionBusyError("s", "b") instanceof HeldElsewhere).toBe(false);
    expect(new HeldElsewhere("s", "b") instanceof bundled.SessionBusyError).toBe(true);
    expect(new Error("plain") instanceof source.SessionBusyError).toBe(false);
    expect((null as unknown) instanceof source.SessionBusyError).toBe(false);
  });

  it("a resume refused with the other copy's SessionBusyError reaches the client as session_busy", async () => {
    class BusyStore extends source.InMemorySessionStore {
      override claim(sessionId: string): void {
        if (this.busy) throw new bundled.SessionBusyError(sessionId, "held by instance B");
        super.claim(sessionId);
      }
      busy = false;
    }
    const store = new BusyStore();
    const agent = source.defineAgent({
      info: { name: "t", version: "1" },
      sessionStore: store,
      prompt: async () => {},
    });
    const first = connect(agent);
    cleanups.push(first.stop);
    await first.client.initialize();
    const sessionId = await first.client.newSession("/w");
    await first.client.request("session/close", { sessionId });
    store.busy = true;
    const error = await first.client.request("session/resume", { sessionId, cwd: "/w" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).data).toEqual({ sessionId, reason: "session_busy" });
  });
});
