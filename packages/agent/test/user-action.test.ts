import { afterEach, describe, expect, it } from "vitest";
import { CapabilityNotSupportedError, type ElicitationResult, type PermissionDecision } from "../src/index.js";
import { gate, type Started, startWithSession } from "./support/harness.js";

let running: Started | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

describe("permission requests", () => {
  it("reports requires_action while blocked and running once answered", async () => {
    const decision = gate<PermissionDecision>();
    const s = (running = await startWithSession(
      {
        prompt: async (turn) => {
          const call = turn.toolCall({ title: "Edit main.py", kind: "edit" });
          decision.open(await call.requestPermission());
          await call.complete();
        },
      },
      { onPermission: () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }) },
    ));
    await s.client.prompt(s.sessionId, "x");
    expect(await decision.promise).toMatchObject({
      granted: true,
      outcome: "selected",
      option: { optionId: "allow_once", kind: "allow_once" },
    });
    await s.client.waitForIdles(1);
    expect(s.client.states().map((u) => u.state)).toEqual(["running", "requires_action", "running", "idle"]);
    const request = s.client.wire.find((m) => m.method === "session/request_permission")!;
    expect(request.params).toMatchObject({
      sessionId: s.sessionId,
      title: 'Allow "Edit main.py"?',
      subject: { type: "tool_call", toolCall: { toolCallId: expect.any(String) } },
      options: [
        { optionId: "allow_once", kind: "allow_once" },
        { optionId: "reject_once", kind: "reject_once" },
      ],
    });
  });

  it("reads rejections, unknown option ids and unknown outcomes as not granted", async () => {
    const answers: unknown[] = [
      { outcome: { outcome: "selected", optionId: "reject_once" } },
      { outcome: { outcome: "selected", optionId: "made_up" } },
      { outcome: { outcome: "_vendor_later" } },
      { outcome: { outcome: "cancelled" } },
    ];
    const decisions: PermissionDecision[] = [];
    const s = (running = await startWithSession(
      {
        prompt: async (turn) => {
          for (let i = 0; i < 4; i++) decisions.push(await turn.requestPermission({ title: `q${i}` }));
        },
      },
      { onPermission: () => answers.shift() },
    ));
    await s.client.prompt(s.sessionId, "x");
    await s.client.waitForIdles(1);
    expect(s.client.idles()[0]).toEqual({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
    expect(decisions.map((d) => [d.granted, d.outcome])).toEqual([
      [false, "selected"],
      [false, "unrecognized"],
      [false, "unrecognized"],
      [false, "cancelled"],
    ]);
  });

  it("decodes the client's answer: one that is not a permission response rejects with a protocol_violation", async () => {
    const failure = gate<unknown>();
    const s = (running = await startWithSession(
      {
        prompt: async (turn) => {
          await turn.requestPermission({ title: "q" }).then(failure.open, failure.open);
        },
      },
      { onPermission: () => ({ outcome: "selected" }) },
    ));
    await s.client.prompt(s.sessionId, "x");
    expect(await failure.promise).toMatchObject({
      name: "ConnectionError",
      kind: "protocol_violation",
      details: { method: "session/request_permission", path: "/outcome" },
    });
    await s.client.waitForIdles(1);
    expect(s.client.idles()[0]).toMatchObject({ stopReason: "end_turn" });
  });

  it("stays running for a non-blocking request", async () => {
    const s = (running = await startWithSession(
      { prompt: async (turn) => void (await turn.requestPermission({ title: "background ok?", blocking: false })) },
      { onPermission: () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }) },
    ));
    await s.client.prompt(s.sessionId, "x");
    await s.client.waitForIdles(1);
    expect(s.client.states().map((u) => u.state)).toEqual(["running", "idle"]);
  });

  it("reports requires_action once for concurrent requests and running after the last answer", async () => {
    const answers: ((v: unknown) => void)[] = [];
    const s = (running = await startWithSession(
      {
        prompt: async (turn) => {
          await Promise.all([turn.requestPermission({ title: "a" }), turn.requestPermission({ title: "b" })]);
        },
      },
      { onPermission: () => new Promise((resolve) => answers.push(resolve)) },
    ));
    await s.client.prompt(s.sessionId, "x");
    await s.client.waitUntil(() => answers.length === 2);
    answers[0]!({ outcome: { outcome: "cancelled" } });
    await s.settled();
    expect(s.client.states().map((u) => u.state)).toEqual(["running", "requires_action"]);
    answers[1]!({ outcome: { outcome: "cancelled" } });
    await s.client.waitForIdles(1);
    expect(s.client.states().map((u) => u.state)).toEqual(["running", "requires_action", "running", "idle"]);
  });

  it("ends the turn with error when the client answers with an error", async () => {
    const s = (running = await startWithSession(
      { prompt: async (turn) => void (await turn.requestPermission({ title: "?" })) },
      {
        onPermission: async () => {
          const { RequestError } = await import("@acp-kit/protocol/jsonrpc");
          throw RequestError.internalError("client broke");
        },
      },
    ));
    await s.client.prompt(s.sessionId, "x");
    await s.client.waitForIdles(1);
    expect(s.client.idles()[0]).toMatchObject({ stopReason: "error", error: { code: -32603 } });
    expect(s.client.states().map((u) => u.state)).toEqual(["running", "requires_action", "running", "idle"]);
  });
});

describe("elicitation", () => {
  const schema = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };

  it("refuses a mode the client did not advertise, locally and without sending", async () => {
    const failure = gate<unknown>();
    const s = (running = await startWithSession(
      {
        prompt: async (turn) => {
          await turn
            .elicit({ mode: "form", message: "Name?", requestedSchema: schema as never })
            .catch((e: unknown) => failure.open(e));
        },
      },
      { clientCapabilities: { elicitation: { url: {} } } },
    ));
    await s.client.prompt(s.sessionId, "x");
    expect(await failure.promise).toBeInstanceOf(CapabilityNotSupportedError);
    await s.client.waitForIdles(1);
    expect(s.client.wire.some((m) => m.method === "elicitation/create")).toBe(false);
  });

  it("treats `elicitation: {}` as advertising no mode", async () => {
    const failure = gate<unknown>();
    const s = (running = await startWithSession(
      {
        prompt: (turn) =>
          turn.elicit({ mode: "url", message: "Log in", url: "https://example.com/login" }).then(
            () => {},
            (e) => failure.open(e),
          ),
      },
      { clientCapabilities: { elicitation: {} } },
    ));
    await s.client.prompt(s.sessionId, "x");
    expect(await failure.promise).toBeInstanceOf(CapabilityNotSupportedError);
  });

  it("sends a form elicitation scoped to the session and returns accepted content", async () => {
    const result = gate<ElicitationResult>();
    const s = (running = await startWithSession(
      {
        prompt: async (turn) =>
          result.open(await turn.elicit({ mode: "form", message: "Name?", requestedSchema: schema as never })),
      },
      {
        clientCapabilities: { elicitation: { form: {} } },
        onElicitation: () => ({ action: "accept", content: { name: "Ada" } }),
      },
    ));
    await s.client.prompt(s.sessionId, "x");
    expect(await result.promise).toEqual({ action: "accept", content: { name: "Ada" } });
    await s.client.waitForIdles(1);
    const request = s.client.wire.find((m) => m.method === "elicitation/create")!;
    expect(request.params).toEqual({ sessionId: s.sessionId, mode: "form", message: "Name?", requestedSchema: schema });
    expect(s.client.states().map((u) => u.state)).toEqual(["running", "requires_action", "running", "idle"]);
  });

  it("sends a URL elicitation with an id, reads unknown actions as cancel, and completes it", async () => {
    const result = gate<ElicitationResult>();
    const s = (running = await startWithSession(
      {
        prompt: async (turn) => {
          const r = await turn.elicit({ mode: "url", message: "Sign in", url: "https://example.com/auth" });
          result.open(r);
          await turn.completeElicitation(r.elicitationId!);
        },
      },
      { clientCapabilities: { elicitation: { url: {} } }, onElicitation: () => ({ action: "_later" }) },
    ));
    await s.client.prompt(s.sessionId, "x");
    const r = await result.promise;
    expect(r.action).toBe("cancel");
    await s.client.waitForIdles(1);
    const request = s.client.wire.find((m) => m.method === "elicitation/create")!;
    expect(request.params.elicitationId).toBe(r.elicitationId);
    expect(s.client.wire.find((m) => m.method === "elicitation/complete")?.params).toEqual({
      elicitationId: r.elicitationId,
    });
  });

  it("resolves a pending elicitation as cancel when the turn is cancelled", async () => {
    const result = gate<ElicitationResult>();
    const s = (running = await startWithSession(
      {
        prompt: async (turn) =>
          result.open(await turn.elicit({ mode: "form", message: "?", requestedSchema: schema as never })),
      },
      { clientCapabilities: { elicitation: { form: {} } } },
    ));
    await s.client.prompt(s.sessionId, "x");
    await s.client.waitUntil(() => s.client.wire.some((m) => m.method === "elicitation/create"));
    await s.client.cancel(s.sessionId);
    expect((await result.promise).action).toBe("cancel");
    await s.client.waitForIdles(1);
    expect(s.client.idles()[0].stopReason).toBe("cancelled");
  });
});
