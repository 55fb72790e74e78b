import * as api from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Connection } from "../jsonrpc/connection.js";
import { createInMemoryTransportPair } from "../jsonrpc/in-memory-transport.js";
import { traceTransport } from "./trace-context.js";

function tracing(name: string) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracer: provider.getTracer(name) };
}

beforeAll(() => {
  api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
});
afterAll(() => {
  api.propagation.disable();
});

describe("trace-context propagation", () => {
  it("carries traceparent in _meta, parents the agent's spans on the client's, and spans the turn", async () => {
    const [a, b] = createInMemoryTransportPair();
    const clientSide = tracing("client");
    const agentSide = tracing("agent");
    const client = new Connection(traceTransport(a, { api, tracer: clientSide.tracer }));
    const agent = new Connection(traceTransport(b, { api, tracer: agentSide.tracer }));
    let receivedMeta: Record<string, unknown> | undefined;
    let answered!: () => void;
    const promptAnswered = new Promise<void>((resolve) => (answered = resolve));
    agent.onRequest("session/prompt", async (params: { sessionId: string; _meta?: Record<string, unknown> }) => {
      receivedMeta = params._meta;
      const update = (u: object) => agent.notify("session/update", { sessionId: params.sessionId, update: u });
      await update({ sessionUpdate: "state_update", state: "running" });
      // The turn ends after the prompt's response reached the client.
      void promptAnswered.then(() => update({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" }));
      return { messageId: "m1" };
    });
    agent.onRequest("session/close", () => {
      throw new Error("boom");
    });
    const idle = new Promise<void>((resolve) =>
      client.onNotification("session/update", (p: { update: { state?: string } }) => {
        if (p.update.state === "idle") resolve();
      }),
    );
    client.listen();
    agent.listen();
    await client.request("session/prompt", { sessionId: "s1", prompt: [], _meta: { mine: 1 } });
    answered();
    await idle;
    await client.request("session/close", { sessionId: "s1" }).catch(() => {});
    await a.settled();

    const [clientPrompt, clientTurn, clientClose] = [
      clientSide.exporter.getFinishedSpans().find((s) => s.name === "acp session/prompt"),
      clientSide.exporter.getFinishedSpans().find((s) => s.name === "acp turn"),
      clientSide.exporter.getFinishedSpans().find((s) => s.name === "acp session/close"),
    ];
    const agentPrompt = agentSide.exporter.getFinishedSpans().find((s) => s.name === "acp session/prompt");
    const agentTurn = agentSide.exporter.getFinishedSpans().find((s) => s.name === "acp turn");
    expect(clientPrompt?.kind).toBe(api.SpanKind.CLIENT);
    expect(agentPrompt?.kind).toBe(api.SpanKind.SERVER);
    const context = clientPrompt?.spanContext();
    expect(receivedMeta?.mine).toBe(1); // the caller's own _meta is kept
    expect(receivedMeta?.traceparent).toBe(`00-${context?.traceId}-${context?.spanId}-01`);
    expect(agentPrompt?.spanContext().traceId).toBe(context?.traceId);
    expect(agentPrompt?.parentSpanContext?.spanId).toBe(context?.spanId);
    expect(clientTurn?.attributes["acp.stop_reason"]).toBe("end_turn");
    expect(agentTurn?.attributes["acp.stop_reason"]).toBe("end_turn");
    expect(agentTurn?.spanContext().traceId).toBe(context?.traceId);
    expect(clientClose?.status.code).toBe(api.SpanStatusCode.ERROR);
    expect(clientClose?.attributes["rpc.jsonrpc.error_code"]).toBe(-32603);
    await client.close();
  });

  it("ends open spans when the connection closes", async () => {
    const [a, b] = createInMemoryTransportPair();
    const side = tracing("client");
    const client = new Connection(traceTransport(a, { api, tracer: side.tracer }));
    b.start({ message: () => {}, closed: () => {} });
    client.listen();
    const pending = client.request("session/prompt", { sessionId: "s", prompt: [] }).catch(() => {});
    await a.settled(); // the request reached the peer
    await b.close();
    await pending;
    const spans = side.exporter.getFinishedSpans();
    expect(spans.map((s) => s.name).sort()).toEqual(["acp session/prompt", "acp turn"]);
    expect(spans.every((s) => s.status.code === api.SpanStatusCode.ERROR)).toBe(true);
  });
});
