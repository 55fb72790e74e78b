// Every transport wrapper keeps what the wrapped transport offers beyond start/send/close.
import * as api from "@opentelemetry/api";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { decorateTransport } from "../jsonrpc/decorate-transport.js";
import type { Transport } from "../jsonrpc/transport.js";
import { tapTransport, WireObserver } from "../jsonrpc/wire-observer.js";
import { traceTransport } from "./trace-context.js";

function innerTransport() {
  const listeners: (() => void)[] = [];
  const transport: Transport = {
    start: () => {},
    send: () => {},
    close: async () => {},
    describePeer: () => ({ source: 'stdout of agent "x"' }),
    onBeforeWrite: (listener) => {
      listeners.push(listener);
      return () => listeners.splice(listeners.indexOf(listener), 1);
    },
  };
  return { transport, listeners };
}

const tracer = new BasicTracerProvider().getTracer("wrappers");

describe("transport wrappers pass the optional members through", () => {
  const wrappers: [string, (t: Transport) => Transport][] = [
    ["decorateTransport", (t) => decorateTransport(t, {})],
    ["tapTransport", (t) => tapTransport(t, () => {})],
    ["WireObserver.observeOutbound", (t) => new WireObserver(() => {}).observeOutbound(t)],
    ["WireObserver.observe", (t) => new WireObserver(() => {}).observe(t)],
    ["traceTransport", (t) => traceTransport(t, { api, tracer })],
  ];
  it.each(wrappers)("%s keeps describePeer and onBeforeWrite", (_name, wrap) => {
    const { transport, listeners } = innerTransport();
    const wrapped = wrap(transport);
    expect(wrapped.describePeer?.()).toEqual({ source: 'stdout of agent "x"' });
    const remove = wrapped.onBeforeWrite?.(() => {});
    expect(listeners).toHaveLength(1);
    remove?.();
    expect(listeners).toHaveLength(0);
  });

  it.each(wrappers)("%s adds none a transport does not have", (_name, wrap) => {
    const wrapped = wrap({ start: () => {}, send: () => {}, close: async () => {} });
    expect(wrapped.describePeer).toBeUndefined();
    expect(wrapped.onBeforeWrite).toBeUndefined();
  });
});
