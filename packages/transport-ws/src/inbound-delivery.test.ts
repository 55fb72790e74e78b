import type { TransportSink } from "@acp-kit/protocol/jsonrpc";
import { describe, expect, it, vi } from "vitest";
import { InboundDelivery } from "./inbound-delivery.js";

function setup() {
  const control = { pause: vi.fn(), resume: vi.fn() };
  const logger = { error: vi.fn(), warn: vi.fn() };
  const delivery = new InboundDelivery(control, logger);
  const events: string[] = [];
  let gate: Promise<void> | undefined;
  const sink: TransportSink = {
    message(payload) {
      events.push(payload);
      return gate;
    },
    closed(error) {
      events.push(`closed:${error?.message ?? "clean"}`);
    },
  };
  return { control, logger, delivery, events, sink, setGate: (value: Promise<void> | undefined) => (gate = value) };
}

describe("InboundDelivery", () => {
  it("holds payloads and the end until start, then delivers them in order", () => {
    const { delivery, events, sink } = setup();
    delivery.push("a");
    delivery.push("b");
    delivery.end(new Error("gone"));
    delivery.push("ignored after end");
    expect(events).toEqual([]);
    delivery.start(sink);
    expect(events).toEqual(["a", "b", "closed:gone"]);
    expect(() => delivery.start(sink)).toThrow("already started");
  });

  it("pauses reading while the sink's promise is pending and keeps order", async () => {
    const { control, delivery, events, sink, setGate } = setup();
    delivery.start(sink);
    let release!: () => void;
    setGate(new Promise<void>((resolve) => (release = resolve)));
    delivery.push("1");
    expect(control.pause).toHaveBeenCalledTimes(1);
    setGate(undefined);
    delivery.push("2");
    delivery.push("3");
    delivery.end();
    expect(events).toEqual(["1"]);
    expect(delivery.pendingSize).toBe(2);
    release();
    await Promise.resolve();
    await Promise.resolve();
    expect(events).toEqual(["1", "2", "3", "closed:clean"]);
    expect(control.resume).not.toHaveBeenCalled(); // ended: nothing more to read
  });

  it("resumes after a rejected sink promise and survives a throwing sink", async () => {
    const { control, logger, delivery, events, setGate } = setup();
    let calls = 0;
    delivery.start({
      message(payload) {
        events.push(payload);
        calls++;
        if (calls === 1) return Promise.reject(new Error("handler failed"));
        if (calls === 2) throw new Error("sink bug");
      },
      closed() {
        events.push("closed");
      },
    });
    setGate(undefined);
    delivery.push("a");
    delivery.push("b");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(control.resume).toHaveBeenCalledTimes(1);
    delivery.push("c");
    delivery.end();
    delivery.end(new Error("second end ignored"));
    expect(events).toEqual(["a", "b", "c", "closed"]);
    expect(logger.warn).toHaveBeenCalled();
    expect(logger.error).toHaveBeenCalled();
  });
});
