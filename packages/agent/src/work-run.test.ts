import { describe, expect, it } from "vitest";
import { WorkRun } from "./work-run.js";

describe("WorkRun signal", () => {
  it.each([
    ["read before the abort", true],
    ["first read after the abort", false],
  ])("%s: aborted with the first reason", (_name, readFirst) => {
    const run = new WorkRun();
    const early = readFirst ? run.signal : undefined;
    expect(run.aborted).toBe(false);
    const first = new DOMException("cancelled", "AbortError");
    run.abort(first);
    run.abort(new DOMException("later", "AbortError"));
    expect(run.aborted).toBe(true);
    const signal = run.signal;
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(first);
    if (early !== undefined) expect(early).toBe(signal);
  });

  it("one signal per run, whenever it is read", () => {
    const run = new WorkRun();
    expect(run.signal).toBe(run.signal);
  });
});
