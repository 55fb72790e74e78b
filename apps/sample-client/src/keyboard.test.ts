import { PassThrough } from "node:stream";
import type { ReadStream } from "node:tty";
import { describe, expect, it } from "vitest";
import { Keyboard } from "./keyboard.js";

function fakeTty(): ReadStream & { raw: boolean[] } {
  const stream = new PassThrough() as unknown as ReadStream & { raw: boolean[] };
  stream.raw = [];
  stream.isTTY = true;
  stream.setRawMode = (mode: boolean) => {
    stream.raw.push(mode);
    return stream;
  };
  return stream;
}

function setup() {
  const input = fakeTty();
  const events: string[] = [];
  const keyboard = new Keyboard(input, {
    line: (text) => events.push(`line:${text}`),
    interrupt: () => events.push("interrupt"),
    endOfInput: () => events.push("eof"),
    changed: () => events.push("changed"),
  });
  const type = (text: string) => (input as unknown as PassThrough).write(text);
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  return { input, keyboard, events, type, tick };
}

describe("Keyboard", () => {
  it("edits a line: typing, backspace, enter", async () => {
    const { keyboard, events, type, tick } = setup();
    type("helo");
    type("\x7f");
    type("lo\r");
    await tick();
    expect(events.filter((e) => e.startsWith("line:"))).toEqual(["line:hello"]);
    expect(keyboard.buffer).toBe("");
    keyboard.close();
  });

  it("ctrl-c is an interrupt key, ctrl-d on an empty line is end of input", async () => {
    const { keyboard, events, type, tick } = setup();
    type("\x03");
    type("x\x04");
    type("\x15\x04");
    await tick();
    expect(events.filter((e) => e !== "changed")).toEqual(["interrupt", "eof"]);
    keyboard.close();
  });

  it("choose() takes a digit in range and ignores the rest; abort resolves undefined", async () => {
    const { keyboard, type, tick, input } = setup();
    const choice = keyboard.choose(3, new AbortController().signal);
    type("9x2");
    await tick();
    expect(await choice).toBe(1);
    const aborter = new AbortController();
    const withdrawn = keyboard.choose(2, aborter.signal);
    aborter.abort();
    expect(await withdrawn).toBeUndefined();
    keyboard.close();
    expect(input.raw).toEqual([true, false]);
  });
});

describe("keyboard hint at a choice", () => {
  it("reports the first key that answers nothing, once per choice", async () => {
    const input = fakeTty();
    const hints: number[] = [];
    const keyboard = new Keyboard(input, {
      line: () => {},
      interrupt: () => {},
      endOfInput: () => {},
      changed: () => {},
      unexpectedKey: (count) => hints.push(count),
    });
    const type = (text: string) => (input as unknown as PassThrough).write(text);
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    const chosen = keyboard.choose(2, new AbortController().signal);
    type("x");
    await tick();
    type("9");
    await tick();
    expect(hints).toEqual([2]);
    type("2");
    expect(await chosen).toBe(1);
    keyboard.close();
  });
});
