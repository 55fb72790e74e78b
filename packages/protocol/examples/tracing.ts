// Trace context (OpenTelemetry): requests sent through a traced transport run in CLIENT spans
// and carry a W3C `traceparent` in `params._meta` for the peer to continue the trace.
// `@opentelemetry/api` is an optional peer of @acp-kit/protocol: install it (and an SDK) to use this.
// Run: tsx packages/protocol/examples/tracing.ts
import { createAgentSideConnection, createClientSideConnection, PROTOCOL_VERSION } from "@acp-kit/protocol";
import { createInMemoryTransportPair } from "@acp-kit/protocol/jsonrpc";
import { traceTransport } from "@acp-kit/protocol/tap";
import * as api from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";

api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
const exporter = new InMemorySpanExporter(); // an application exports to its collector instead
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

const [agentSide, clientSide] = createInMemoryTransportPair();
const agent = createAgentSideConnection(agentSide);
agent.onRequest("initialize", ({ protocolVersion, _meta }) => {
  console.log(`agent: traceparent ${typeof _meta?.traceparent === "string" ? "received" : "missing"}`);
  return { protocolVersion, info: { name: "tiny-agent", version: "1.0.0" }, capabilities: {} };
});
agent.listen();

const traced = traceTransport(clientSide, { api, tracer: provider.getTracer("my-editor") });
const conn = createClientSideConnection(traced);
conn.listen();
await conn.request("initialize", { protocolVersion: PROTOCOL_VERSION, info: { name: "my-editor", version: "1.0.0" } });
await conn.close();
for (const span of exporter.getFinishedSpans()) console.log(`span: ${span.name} (${api.SpanKind[span.kind]})`);
