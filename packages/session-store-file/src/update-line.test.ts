import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionRecord } from "@acp-kit/agent";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { LogAppender, patchLine, readLog, writeLogAtomically } from "./session-log.js";
import { UpdateLineWriter } from "./update-line.js";

const dir = mkdtempSync(join(tmpdir(), "acp-update-lines-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const record: SessionRecord = {
  sessionId: "s",
  cwd: "/w",
  additionalDirectories: [],
  configOptions: [],
  availableCommands: [],
};
let files = 0;
const freshLog = (): string => {
  const path = join(dir, `${files++}.jsonl`);
  writeLogAtomically(path, record, [], false);
  return path;
};
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
const chunk = (messageId: string, text: string, kind = "agent_message_chunk") =>
  ({ sessionUpdate: kind, messageId, content: { type: "text", text } }) as SessionUpdate;

// Strings with quotes, backslashes, controls, lone and paired surrogates, U+2028.
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.constantFrom('say "hi"', "a\\b", "tab\there", "\u2028", "\ud800", "😀", ""),
);
const plainChunk = fc.record({
  sessionUpdate: fc.constantFrom("agent_message_chunk", "agent_thought_chunk", "user_message_chunk"),
  messageId: fc.constantFrom("m1", "m2", 'm"3'),
  content: fc.record({ type: fc.constant("text"), text }),
});
const otherUpdate = fc.record(
  {
    sessionUpdate: fc.constantFrom("agent_message_chunk", "plan", "tool_call"),
    messageId: fc.oneof(fc.constantFrom("m1", "m2"), fc.integer()),
    content: fc.oneof(
      fc.record({ type: fc.constantFrom("text", "image"), text }, { requiredKeys: [] }),
      fc.record({ type: fc.constant("text"), text, annotations: fc.object() }),
      fc.array(fc.record({ type: fc.constant("text"), text })),
    ),
    _meta: fc.object(),
  },
  { requiredKeys: ["sessionUpdate", "content"] },
);
type Step = { update: unknown } | { patch: string } | { reopen: true } | { flush: true };
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: plainChunk.map((update) => ({ update })) },
  { weight: 2, arbitrary: otherUpdate.map((update) => ({ update })) },
  { weight: 1, arbitrary: text.map((title) => ({ patch: title })) },
  { weight: 1, arbitrary: fc.constant({ reopen: true as const }) },
  { weight: 1, arbitrary: fc.constant({ flush: true as const }) },
);

describe("history lines", () => {
  it("read back as the updates appended, across patches, flushes and reopens (property)", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const path = freshLog();
        let log = new LogAppender(path, 0);
        const appended: unknown[] = [];
        let title: string | undefined;
        for (const s of steps) {
          if ("update" in s) {
            log.appendUpdate(s.update as SessionUpdate);
            appended.push(asJson(s.update));
          } else if ("patch" in s) {
            log.append(patchLine({ title: s.patch }));
            title = s.patch;
          } else if ("flush" in s) log.flush();
          else {
            log.close();
            log = new LogAppender(path, 0);
          }
        }
        log.close();
        const read = readLog(path);
        expect(read?.skipped).toBe(0);
        expect(read?.history).toEqual(appended);
        expect(read?.record.title).toEqual(title);
      }),
      { numRuns: 300 },
    );
  });

  it("starts a run of chunks with the update as JSON.stringify writes it, then continues it in short lines", () => {
    const lines = new UpdateLineWriter();
    const first = chunk("m1", "Hel");
    expect(lines.line(first)).toBe(`{"u":${JSON.stringify(first)}}\n`);
    expect(lines.line(chunk("m1", 'lo "you"'))).toBe('{"c":"lo \\"you\\""}\n');
    // Another message, another kind, or a chunk with more fields starts afresh.
    expect(lines.line(chunk("m2", "x"))).toMatch(/^\{"u":/);
    expect(lines.line(chunk("m2", "x", "agent_thought_chunk"))).toMatch(/^\{"u":/);
    const withMeta = { ...chunk("m2", "x", "agent_thought_chunk"), _meta: { a: 1 } } as SessionUpdate;
    expect(lines.line(withMeta)).toBe(`{"u":${JSON.stringify(withMeta)}}\n`);
    expect(lines.line(chunk("m2", "y", "agent_thought_chunk"))).toMatch(/^\{"u":/);
  });

  it("takes the generic path for a non-plain object (toJSON is honoured)", () => {
    class Content {
      type = "text";
      text = "x";
      toJSON() {
        return { type: "text", text: "from toJSON" };
      }
    }
    const custom = { sessionUpdate: "agent_message_chunk", messageId: "m", content: new Content() };
    expect(new UpdateLineWriter().line(custom as never)).toBe(`{"u":${JSON.stringify(custom)}}\n`);
  });

  it("never lends a damaged line's message to the continuation lines after it", () => {
    const path = freshLog();
    const log = new LogAppender(path, 0);
    log.appendUpdate(chunk("m1", "a"));
    log.appendUpdate(chunk("m1", "b"));
    log.close();
    // A damaged line (not a torn tail: more lines follow it), then lines continuing a run of m2.
    appendFileSync(path, '{"u":{"sessionUpdate":"agent_message_chunk","messageId":"m2","con\n{"c":"lost"}\n');
    const lines = readFileSync(path, "utf8").split("\n");
    expect(lines.filter((l) => l.startsWith('{"c"'))).toHaveLength(2);
    const read = readLog(path);
    expect(read?.history).toEqual([chunk("m1", "a"), chunk("m1", "b")]);
    expect(read?.skipped).toBe(2);
  });
});
