/**
 * Keyboard input on a terminal in raw mode: a minimal line editor for prompts, single-key
 * choices for permission prompts, and Ctrl-C / Ctrl-D as keys (raw mode means Ctrl-C is not a
 * signal, so the agent child in our process group is not interrupted by it).
 */
import { emitKeypressEvents } from "node:readline";
import type { ReadStream } from "node:tty";
import { graphemes } from "./text-width.js";

export interface KeyboardHandlers {
  /** Enter was pressed with this text (line mode). */
  line(text: string): void;
  interrupt(): void;
  /** Ctrl-D on an empty line. */
  endOfInput(): void;
  /** The line being edited changed (to redraw it). */
  changed(): void;
  /** A key that answers nothing was pressed at a choice of `count` (called once per choice). */
  unexpectedKey?(count: number): void;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

interface Key {
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
  sequence?: string;
}

export class Keyboard {
  readonly #input: ReadStream;
  readonly #handlers: KeyboardHandlers;
  #buffer = "";
  #choice: { count: number; hinted?: boolean; resolve(index: number | undefined): void } | undefined;
  readonly #onKeypress = (text: string | undefined, key: Key | undefined) => this.#handle(text, key);

  constructor(input: ReadStream, handlers: KeyboardHandlers) {
    this.#input = input;
    this.#handlers = handlers;
    emitKeypressEvents(input);
    input.setRawMode(true);
    input.on("keypress", this.#onKeypress);
    input.resume();
  }

  /** The line being edited. */
  get buffer(): string {
    return this.#buffer;
  }

  /** Waits for a digit 1..count; undefined when `signal` aborts first. */
  choose(count: number, signal: AbortSignal): Promise<number | undefined> {
    this.#choice?.resolve(undefined);
    return new Promise((resolve) => {
      if (signal.aborted) return resolve(undefined);
      const onAbort = () => {
        if (this.#choice === choice) this.#choice = undefined;
        resolve(undefined);
      };
      const choice = {
        count,
        resolve: (index: number | undefined) => {
          signal.removeEventListener("abort", onAbort);
          resolve(index);
        },
      };
      this.#choice = choice;
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  close(): void {
    this.#choice?.resolve(undefined);
    this.#choice = undefined;
    this.#input.off("keypress", this.#onKeypress);
    if (this.#input.isTTY) this.#input.setRawMode(false);
    this.#input.pause();
  }

  #handle(text: string | undefined, key: Key | undefined): void {
    if (key?.ctrl && key.name === "c") {
      this.#handlers.interrupt();
      return;
    }
    const choice = this.#choice;
    if (choice) {
      const digit = Number.parseInt(text ?? "", 10);
      if (digit >= 1 && digit <= choice.count) {
        this.#choice = undefined;
        choice.resolve(digit - 1);
      } else if (!choice.hinted) {
        choice.hinted = true;
        this.#handlers.unexpectedKey?.(choice.count);
      }
      return;
    }
    if (key?.ctrl && key.name === "d") {
      if (this.#buffer.length === 0) this.#handlers.endOfInput();
      return;
    }
    if (key?.name === "return" || key?.name === "enter") {
      const line = this.#buffer;
      this.#buffer = "";
      this.#handlers.changed();
      this.#handlers.line(line);
      return;
    }
    if (key?.name === "backspace") {
      this.#buffer = graphemes(this.#buffer).slice(0, -1).join(""); // a whole emoji or accented letter
      this.#handlers.changed();
      return;
    }
    if (key?.ctrl && key.name === "u") {
      this.#buffer = "";
      this.#handlers.changed();
      return;
    }
    if (key?.ctrl || key?.meta) return;
    if (text && !CONTROL_CHARACTER.test(text)) {
      this.#buffer += text;
      this.#handlers.changed();
    }
  }
}
