/**
 * `acp-kit record -- <agent command...>`: a transparent stdio proxy. The editor starts
 * `acp-kit record ... -- agent` instead of `agent`; bytes pass through unchanged both ways,
 * and every line is also written to a JSONL transcript (see the protocol package's format).
 */
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { resolve } from "node:path";
import { WireObserver } from "@acp-kit/protocol/jsonrpc";
import { TranscriptWriter } from "@acp-kit/protocol/tap";

export interface RecordOptions {
  command: string[];
  out: string;
  /** Lines longer than this are forwarded but recorded as a size only (default 32 MiB). */
  maxLineBytes?: number;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  onNotice?: (text: string) => void;
}

/** Splits a byte stream into lines for the recorder, without holding more than `max` bytes of one line. */
function lineSplitter(max: number, onLine: (line: string | { omittedBytes: number }) => void) {
  let parts: Buffer[] = [];
  let size = 0;
  let overflow = 0;
  return (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      if (overflow > 0 || size + piece.length > max) onLine({ omittedBytes: overflow + size + piece.length });
      else {
        const line = Buffer.concat([...parts, piece])
          .toString("utf8")
          .replace(/\r$/, "");
        if (line.trim().length > 0) onLine(line);
      }
      parts = [];
      size = 0;
      overflow = 0;
      start = nl + 1;
    }
    const rest = chunk.subarray(start);
    if (overflow > 0 || size + rest.length > max) {
      overflow += size + rest.length;
      parts = [];
      size = 0;
    } else if (rest.length > 0) {
      parts.push(Buffer.from(rest));
      size += rest.length;
    }
  };
}

export async function record(options: RecordOptions): Promise<number> {
  const file = resolve(options.out);
  const output = createWriteStream(file, { flags: "w" });
  const writer = new TranscriptWriter({
    write: (line) => output.write(`${line}\n`),
    side: "client",
    meta: { recordedBy: "acp-kit record", agentCommand: options.command },
  });
  // One observer for the pair: `out` is the editor (client) → agent direction.
  const observer = new WireObserver(writer.tap);
  const max = options.maxLineBytes ?? 32 * 1024 * 1024;
  const recordLine = (direction: "out" | "in") => (line: string | { omittedBytes: number }) => {
    if (typeof line !== "string") {
      writer.record(direction === "out" ? "client" : "agent", {
        time: Date.now(),
        bytes: line.omittedBytes,
        payload: `<${line.omittedBytes} bytes not recorded>`,
        message: undefined,
      });
      return;
    }
    if (direction === "out") observer.outbound(line);
    else {
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        parsed = undefined;
      }
      observer.inbound(line, parsed);
    }
  };

  const [command, ...args] = options.command as [string, ...string[]];
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const toAgent = lineSplitter(max, recordLine("out"));
  const toEditor = lineSplitter(max, recordLine("in"));
  const onInput = (chunk: Buffer) => {
    toAgent(chunk);
    if (!child.stdin.write(chunk)) {
      stdin.pause();
      child.stdin.once("drain", () => stdin.resume());
    }
  };
  stdin.on("data", onInput);
  stdin.on("end", () => child.stdin.end());
  child.stdin.on("error", () => {});
  child.stdout.on("data", (chunk: Buffer) => {
    toEditor(chunk);
    if (!stdout.write(chunk)) {
      child.stdout.pause();
      stdout.once("drain", () => child.stdout.resume());
    }
  });
  options.onNotice?.(`acp-kit record: writing ${file}\n`);
  const code = await new Promise<number>((done) => {
    child.on("error", (error) => {
      options.onNotice?.(`acp-kit record: cannot start ${command}: ${error.message}\n`);
      done(127);
    });
    child.on("close", (exitCode, signal) => done(exitCode ?? (signal ? 128 : 1)));
  });
  stdin.off("data", onInput);
  (stdin as { pause?: () => void }).pause?.();
  await new Promise<void>((r) => output.end(r));
  return code;
}
