import { describe, expect, it } from "vitest";
import { KeyedSerializer } from "./keyed-serializer.js";

describe("KeyedSerializer", () => {
  it("runs tasks of one key in order, tasks of different keys concurrently", async () => {
    const serializer = new KeyedSerializer<string>();
    const events: string[] = [];
    const task = (name: string, ms: number) => async () => {
      events.push(`start ${name}`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      events.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([
      serializer.run("s1", task("a1", 20)),
      serializer.run("s1", task("a2", 0)),
      serializer.run("s2", task("b1", 0)),
    ]);
    expect(results).toEqual(["a1", "a2", "b1"]);
    expect(events.indexOf("end a1")).toBeLessThan(events.indexOf("start a2"));
    expect(events.indexOf("start b1")).toBeLessThan(events.indexOf("end a1"));
    expect(serializer.activeKeys).toBe(0);
  });

  it("keeps going after a failing task, which rejects only its own promise", async () => {
    const serializer = new KeyedSerializer<number>();
    const failed = serializer.run(1, () => {
      throw new Error("nope");
    });
    const next = serializer.run(1, () => "next");
    await expect(failed).rejects.toThrow("nope");
    await expect(next).resolves.toBe("next");
  });
});
