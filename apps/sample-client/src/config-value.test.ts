import type { SessionConfigOption } from "@acp-kit/protocol/types";
import { describe, expect, it } from "vitest";
import { configValueFor, currentValueName } from "./config-value.js";

const options: SessionConfigOption[] = [
  {
    configId: "mode",
    name: "Mode",
    type: "select",
    currentValue: "ask",
    options: [
      { value: "ask", name: "Ask" },
      { value: "auto", name: "Auto" },
    ],
  },
  {
    configId: "model",
    name: "Model",
    type: "select",
    currentValue: "a",
    options: [
      {
        groupId: "g",
        name: "G",
        options: [
          { value: "a", name: "A" },
          { value: "b", name: "B" },
        ],
      },
    ],
  },
  { configId: "fast", name: "Fast", type: "boolean", currentValue: false },
];

describe("configValueFor", () => {
  it.each([
    ["mode", "auto", "auto"],
    ["model", "b", "b"],
    ["fast", "true", true],
    ["fast", "false", false],
  ] as const)("%s=%s → %j", (id, text, value) => {
    expect(configValueFor(options, id, text)).toBe(value);
  });
  it("lists the valid values or ids when one is wrong", () => {
    expect(() => configValueFor(options, "mode", "yolo")).toThrow('has no value "yolo": use one of ask, auto');
    expect(() => configValueFor(options, "model", "c")).toThrow("use one of a, b");
    expect(() => configValueFor(options, "fast", "yes")).toThrow("use true or false");
    expect(() => configValueFor(options, "colour", "x")).toThrow("(it has: mode, model, fast)");
  });
});

describe("currentValueName", () => {
  it("names a select's value (flat or grouped), keeps booleans and unknown values", () => {
    const select = {
      configId: "mode",
      name: "Mode",
      type: "select",
      currentValue: "https://example.com/modes#agent",
      options: [{ value: "https://example.com/modes#agent", name: "Agent" }],
    } as SessionConfigOption;
    expect(currentValueName(select)).toBe("Agent");
    const grouped = {
      ...select,
      currentValue: "m2",
      options: [{ group: "g", name: "G", options: [{ value: "m2", name: "Model two" }] }],
    } as SessionConfigOption;
    expect(currentValueName(grouped)).toBe("Model two");
    expect(currentValueName({ ...select, currentValue: "other" } as SessionConfigOption)).toBe("other");
    expect(
      currentValueName({ configId: "b", name: "B", type: "boolean", currentValue: true } as SessionConfigOption),
    ).toBe("true");
  });
});
