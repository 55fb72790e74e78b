/**
 * Optional W3C trace-context propagation with OpenTelemetry. `traceTransport(transport, { api,
 * tracer })` wraps a transport so that:
 *
 * - every request we send runs in a CLIENT span (`acp <method>`) that ends with its response,
 *   and carries `traceparent` / `tracestate` in its `params._meta`;
 * - every request we receive runs in a SERVER span, a child of the context its `_meta` carries;
 * - every prompt turn (a `session/prompt`, until the session's `state_update` idle) is a span
 *   `acp turn`, with the stop reason as an attribute.
 *
 * `api` is the `@opentelemetry/api` module (an optional peer: this package never imports it),
 * `tracer` one of its tracers. Without this wrapper nothing of it runs.
 */

import { decorateTransport } from "../jsonrpc/decorate-transport.js";
import { isRecord } from "../jsonrpc/records.js";
import type { Transport, TransportSink } from "../jsonrpc/transport.js";

/** The parts of `@opentelemetry/api` used here (pass the module: `import * as api from "@opentelemetry/api"`). */
export interface TraceApi {
  context: { active(): unknown };
  trace: { setSpan(context: unknown, span: TraceSpan): unknown };
  propagation: {
    inject(context: unknown, carrier: Record<string, string>): void;
    extract(context: unknown, carrier: Record<string, string>): unknown;
  };
  SpanKind: { CLIENT: number; SERVER: number; INTERNAL: number };
  SpanStatusCode: { ERROR: number };
}

export interface TraceSpan {
  setAttribute(key: string, value: string | number | boolean): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

export interface TraceTracer {
  startSpan(
    name: string,
    options?: { kind?: number; attributes?: Record<string, string | number | boolean> },
    context?: unknown,
  ): TraceSpan;
}

export interface TraceContextOptions {
  api: TraceApi;
  tracer: TraceTracer;
}

/** How many open spans of each kind are kept (the oldest end first, as abandoned). */
const MAX_OPEN = 4096;

type Message = {
  id?: unknown;
  method?: unknown;
  params?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown };
};

function parse(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    return undefined;
  }
}

class OpenSpans {
  readonly #spans = new Map<unknown, TraceSpan>();
  add(key: unknown, span: TraceSpan): void {
    if (this.#spans.size >= MAX_OPEN) {
      const [oldest, old] = this.#spans.entries().next().value as [unknown, TraceSpan];
      this.#spans.delete(oldest);
      old.end();
    }
    this.#spans.get(key)?.end();
    this.#spans.set(key, span);
  }
  take(key: unknown): TraceSpan | undefined {
    const span = this.#spans.get(key);
    this.#spans.delete(key);
    return span;
  }
  endAll(status: { code: number; message: string }): void {
    for (const span of this.#spans.values()) {
      span.setStatus(status);
      span.end();
    }
    this.#spans.clear();
  }
}

class Tracing {
  readonly #api: TraceApi;
  readonly #tracer: TraceTracer;
  readonly #sent = new OpenSpans();
  readonly #received = new OpenSpans();
  readonly #turns = new OpenSpans();

  constructor(options: TraceContextOptions) {
    this.#api = options.api;
    this.#tracer = options.tracer;
  }

  /** Starts spans for what we send; returns the payload to send (with `_meta` trace context on requests). */
  outbound(payload: string): string {
    const message = parse(payload);
    if (!isRecord(message)) return payload;
    const m = message as Message;
    if (typeof m.method === "string" && m.id !== undefined && m.id !== null) {
      const span = this.#tracer.startSpan(`acp ${m.method}`, {
        kind: this.#api.SpanKind.CLIENT,
        attributes: this.#attributes(m),
      });
      this.#sent.add(m.id, span);
      const carrier: Record<string, string> = {};
      this.#api.propagation.inject(this.#api.trace.setSpan(this.#api.context.active(), span), carrier);
      if (m.method === "session/prompt") this.#startTurn(m.params, span);
      if (Object.keys(carrier).length === 0) return payload;
      const params = isRecord(m.params) ? m.params : {};
      const meta = isRecord(params._meta) ? params._meta : {};
      return JSON.stringify({ ...m, params: { ...params, _meta: { ...meta, ...carrier } } });
    }
    if (m.method === undefined && m.id !== undefined) this.#settle(this.#received, m);
    else if (m.method === "session/update") this.#maybeEndTurn(m.params);
    return payload;
  }

  inbound(payload: string): void {
    const message = parse(payload);
    if (!isRecord(message)) return;
    const m = message as Message;
    if (typeof m.method === "string" && m.id !== undefined && m.id !== null) {
      const meta = isRecord(m.params) && isRecord(m.params._meta) ? m.params._meta : {};
      const carrier: Record<string, string> = {};
      for (const key of ["traceparent", "tracestate"])
        if (typeof meta[key] === "string") carrier[key] = meta[key] as string;
      const parent = this.#api.propagation.extract(this.#api.context.active(), carrier);
      const span = this.#tracer.startSpan(
        `acp ${m.method}`,
        { kind: this.#api.SpanKind.SERVER, attributes: this.#attributes(m) },
        parent,
      );
      this.#received.add(m.id, span);
      if (m.method === "session/prompt") this.#startTurn(m.params, span);
    } else if (m.method === undefined && m.id !== undefined) this.#settle(this.#sent, m);
    else if (m.method === "session/update") this.#maybeEndTurn(m.params);
  }

  closed(): void {
    const status = { code: this.#api.SpanStatusCode.ERROR, message: "connection closed" };
    this.#sent.endAll(status);
    this.#received.endAll(status);
    this.#turns.endAll(status);
  }

  #attributes(m: Message): Record<string, string | number | boolean> {
    const attributes: Record<string, string | number | boolean> = {
      "rpc.system": "jsonrpc",
      "rpc.method": String(m.method),
    };
    if (typeof m.id === "string" || typeof m.id === "number") attributes["rpc.jsonrpc.request_id"] = m.id;
    const sessionId = isRecord(m.params) ? m.params.sessionId : undefined;
    if (typeof sessionId === "string") attributes["acp.session_id"] = sessionId;
    return attributes;
  }

  #settle(spans: OpenSpans, m: Message): void {
    const span = spans.take(m.id);
    if (span === undefined) return;
    if (isRecord(m.error)) {
      if (typeof m.error.code === "number") span.setAttribute("rpc.jsonrpc.error_code", m.error.code);
      span.setStatus({ code: this.#api.SpanStatusCode.ERROR, message: String(m.error.message ?? "") });
    }
    span.end();
  }

  #startTurn(params: unknown, request: TraceSpan): void {
    const sessionId = isRecord(params) ? params.sessionId : undefined;
    if (typeof sessionId !== "string") return;
    const parent = this.#api.trace.setSpan(this.#api.context.active(), request);
    this.#turns.add(
      sessionId,
      this.#tracer.startSpan(
        "acp turn",
        { kind: this.#api.SpanKind.INTERNAL, attributes: { "acp.session_id": sessionId } },
        parent,
      ),
    );
  }

  #maybeEndTurn(params: unknown): void {
    if (!isRecord(params) || typeof params.sessionId !== "string" || !isRecord(params.update)) return;
    const update = params.update;
    if (update.sessionUpdate !== "state_update" || update.state !== "idle") return;
    const span = this.#turns.take(params.sessionId);
    if (span === undefined) return;
    if (typeof update.stopReason === "string") span.setAttribute("acp.stop_reason", update.stopReason);
    if (update.stopReason === "error")
      span.setStatus({ code: this.#api.SpanStatusCode.ERROR, message: "stop reason error" });
    span.end();
  }
}

/** `transport` with trace context propagated and spans around requests and turns (see above). */
export function traceTransport(transport: Transport, options: TraceContextOptions): Transport {
  const tracing = new Tracing(options);
  return decorateTransport(transport, {
    start: (sink: TransportSink) =>
      transport.start({
        message: (payload) => {
          tracing.inbound(payload);
          return sink.message(payload);
        },
        closed: (error) => {
          tracing.closed();
          sink.closed(error);
        },
      }),
    send: (payload: string) => transport.send(tracing.outbound(payload)),
  });
}
