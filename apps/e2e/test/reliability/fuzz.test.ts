/**
 * Seeded fuzzing of every layer a peer reaches: the NDJSON framer, the generated decoders, the
 * JSON-RPC connection and both engines (agent and client). Invariants: no exception escapes, no
 * hang, every request answered exactly once, and a normal turn still completes after the bad
 * input. The total case count is printed (docs/reliability.md); `ACP_KIT_RELIABILITY=full`
 * runs ten times more, `ACP_KIT_FUZZ_SEED` replays another seed.
 */
import { defineAgent } from "@acp-kit/agent";
import { connectToAgent } from "@acp-kit/client";
import { decoders } from "@acp-kit/protocol";
import { Connection, createInMemoryTransportPair, type Logger } from "@acp-kit/protocol/jsonrpc";
import { NdjsonLineDecoder } from "@acp-kit/transport-stdio";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { SEED, size } from "./scale.js";

const counts: Record<string, number> = {};
afterAll(() => {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  process.stdout.write(`[reliability] fuzz seed ${SEED}: ${total} cases (${JSON.stringify(counts)})\n`);
  expect(total).toBeGreaterThanOrEqual(size(100_000, 1_000_000));
});

function count(target: string): void {
  counts[target] = (counts[target] ?? 0) + 1;
}

const settle = async (rounds = 4) => {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** A logger that fails the property on an escaped exception (the connection's last resort). */
function watchingLogger(failures: string[]): Logger {
  return {
    error: (message) => {
      if (message.startsWith("Unexpected failure")) failures.push(message);
    },
  };
}

const hostileKey = fc.constantFrom(
  "__proto__",
  "constructor",
  "toString",
  "jsonrpc",
  "id",
  "method",
  "params",
  "_meta",
);
const hostileJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.jsonValue({ maxDepth: 1 }),
    fc.array(tie("value"), { maxLength: 3 }),
    fc
      .array(fc.tuple(fc.oneof(hostileKey, fc.string({ maxLength: 6 })), tie("value")), { maxLength: 4 })
      .map((entries) =>
        JSON.parse(`{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? "null"}`).join(",")}}`),
      ),
  ),
})).value;

/**
 * Payload texts a hostile peer sends: junk, almost-messages, batches, huge and unsafe ids, and
 * responses with ids in `responseIds` (kept off the ids the side under test uses itself).
 */
const hostilePayloads = (responseIds: { min: number; max: number }) =>
  fc.oneof(
    fc.string({ maxLength: 40 }),
    hostileJson.map((v) => JSON.stringify(v) ?? "null"),
    fc
      .record({
        id: fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.constant(null), fc.double()),
        method: fc.string({ maxLength: 12 }),
        params: hostileJson,
      })
      .map((m) => JSON.stringify({ jsonrpc: "2.0", ...m })),
    fc
      .record({ id: fc.integer(responseIds), result: hostileJson })
      .map((m) => JSON.stringify({ jsonrpc: "2.0", ...m })),
    fc.array(hostileJson, { maxLength: 5 }).map((entries) => JSON.stringify(entries)),
    fc.constant('{"jsonrpc":"2.0","id":12345678901234567890,"method":"echo"}'),
    fc.constant("[]"),
  );
const hostilePayload = hostilePayloads({ min: 1, max: 20 });

function isRequestWithId(entry: unknown): entry is { id: string | number } {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return false;
  const message = entry as Record<string, unknown>;
  const id = message.id;
  return message.jsonrpc === "2.0" && "method" in message && (typeof id === "string" || Number.isSafeInteger(id));
}

describe("fuzzing (seeded)", { timeout: 120_000 }, () => {
  it("framer: any chunking of any lines gives back exactly the non-blank lines", () => {
    const line = fc.string({
      maxLength: 30,
      unit: fc.constantFrom("a", "é", "🙂", " ", "\t", "\r", "{", '"', "\\", "x"),
    });
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 17 }), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        (lines, cuts, crlf) => {
          count("framer");
          const bytes = Buffer.from(lines.map((l) => `${l}${crlf ? "\r\n" : "\n"}`).join(""));
          const decoder = new NdjsonLineDecoder(1024);
          const out: string[] = [];
          let offset = 0;
          for (let i = 0; offset < bytes.length; i++) {
            const step = cuts[i % cuts.length] as number;
            decoder.push(bytes.subarray(offset, offset + step));
            offset += step;
            for (let next = decoder.next(); next !== undefined; next = decoder.next()) out.push(next);
          }
          decoder.end();
          for (let next = decoder.next(); next !== undefined; next = decoder.next()) out.push(next);
          // A CR ending a line is the CR of a CRLF: the framer drops one; blank lines are skipped.
          const expected = lines.map((l) => (crlf ? l : l.replace(/\r$/, ""))).filter((l) => l.trim().length > 0);
          expect(out).toEqual(expected);
        },
      ),
      { seed: SEED, numRuns: size(45_000, 450_000) },
    );
  });

  it("decoders: every generated decoder returns a result on any JSON, never throws", () => {
    const table = decoders as unknown as Record<
      string,
      { params: (v: unknown) => unknown; result?: (v: unknown) => unknown }
    >;
    const checks = Object.values(table).flatMap((entry) =>
      entry.result ? [entry.params, entry.result] : [entry.params],
    );
    fc.assert(
      fc.property(fc.nat({ max: checks.length - 1 }), hostileJson, (index, value) => {
        count("decoders");
        const result = (checks[index] as (v: unknown) => { ok: boolean })(value);
        expect(typeof result.ok).toBe("boolean");
      }),
      { seed: SEED, numRuns: size(35_000, 350_000) },
    );
  });

  it("connection: hostile payloads, then every request answered exactly once and a normal call works", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hostilePayload, { maxLength: 6 }), async (payloads) => {
        count("connection");
        const failures: string[] = [];
        const [ours, theirs] = createInMemoryTransportPair();
        const connection = new Connection(ours, { logger: watchingLogger(failures), maxBatchEntries: 4 });
        connection.onRequest("echo", async (params) => params ?? null);
        connection.listen();
        const answers = new Map<string, number>();
        theirs.start({
          message(payload) {
            const value = JSON.parse(payload) as unknown;
            for (const entry of Array.isArray(value) ? value : [value]) {
              const id = JSON.stringify((entry as { id?: unknown }).id);
              answers.set(id, (answers.get(id) ?? 0) + 1);
            }
          },
          closed: () => undefined,
        });
        for (const payload of payloads) await theirs.send(payload);
        await theirs.send('{"jsonrpc":"2.0","id":"final","method":"echo","params":{"ok":true}}');
        await settle();
        expect(failures).toEqual([]);
        expect(answers.get('"final"')).toBe(1);
        // Every request with a usable id got exactly one answer with that id.
        const expected = new Map<string, number>();
        for (const payload of payloads) {
          let value: unknown;
          try {
            value = JSON.parse(payload);
          } catch {
            continue;
          }
          const entries = Array.isArray(value) ? (value.length <= 4 ? value : []) : [value];
          for (const entry of entries)
            if (isRequestWithId(entry))
              expected.set(JSON.stringify(entry.id), (expected.get(JSON.stringify(entry.id)) ?? 0) + 1);
        }
        for (const [id, times] of expected) expect(answers.get(id)).toBe(times);
        await connection.close();
      }),
      { seed: SEED, numRuns: size(15_000, 150_000) },
    );
  });

  it("agent engine: hostile messages, then a normal turn still ends with exactly one idle", async () => {
    const agent = defineAgent({
      info: { name: "fuzz", version: "1" },
      validateOutgoing: false,
      prompt: async (turn) => {
        await turn.message().append("ok");
      },
    });
    const sessionMethods = fc.constantFrom(
      "session/new",
      "session/prompt",
      "session/cancel",
      "session/close",
      "session/resume",
      "session/list",
      "initialize",
      "_ext",
      "tool_call/cancel",
    );
    const agentPayload = fc.oneof(
      hostilePayload,
      fc
        .record({ id: fc.integer({ min: 100, max: 999 }), method: sessionMethods, params: hostileJson })
        .map((m) => JSON.stringify({ jsonrpc: "2.0", ...m })),
      fc.record({ method: sessionMethods, params: hostileJson }).map((m) => JSON.stringify({ jsonrpc: "2.0", ...m })),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(agentPayload, { maxLength: 5 }), async (payloads) => {
        count("agent");
        const [agentSide, clientSide] = createInMemoryTransportPair();
        const handle = agent.serve(agentSide);
        const received: {
          id?: unknown;
          method?: string;
          params?: { update?: { sessionUpdate?: string; state?: string } };
          result?: { sessionId?: string };
        }[] = [];
        clientSide.start({ message: (p) => void received.push(...[JSON.parse(p)].flat()), closed: () => undefined });
        const send = (m: object) => clientSide.send(JSON.stringify({ jsonrpc: "2.0", ...m }));
        await send({
          id: "init",
          method: "initialize",
          params: { protocolVersion: 2, info: { name: "c", version: "1" } },
        });
        for (const payload of payloads) await clientSide.send(payload);
        await send({ id: "new", method: "session/new", params: { cwd: "/tmp" } });
        await settle();
        const sessionId = received.find((r) => r.id === "new")?.result?.sessionId;
        expect(typeof sessionId).toBe("string");
        await send({
          id: "prompt",
          method: "session/prompt",
          params: { sessionId, prompt: [{ type: "text", text: "hi" }] },
        });
        await settle(8);
        const idles = received.filter(
          (r) =>
            r.params?.update?.sessionUpdate === "state_update" &&
            r.params.update.state === "idle" &&
            (r.params as { sessionId?: string }).sessionId === sessionId,
        );
        expect(idles).toHaveLength(1);
        expect(received.filter((r) => r.id === "prompt")).toHaveLength(1);
        await clientSide.close();
        await handle.closed;
      }),
      { seed: SEED, numRuns: size(3_000, 30_000) },
    );
  });

  it("client engine: a hostile agent's junk, then a normal session and turn still work", async () => {
    const agentMethods = fc.constantFrom(
      "session/update",
      "session/request_permission",
      "elicitation/create",
      "elicitation/complete",
      "_ext",
      "unknown",
    );
    const junk = fc.oneof(
      // The client's own request ids are small: a response to one of them is not junk, it is an answer.
      hostilePayloads({ min: 10_000, max: 20_000 }),
      fc.record({ method: agentMethods, params: hostileJson }).map((m) => JSON.stringify({ jsonrpc: "2.0", ...m })),
      fc
        .record({ id: fc.integer({ min: 100, max: 999 }), method: agentMethods, params: hostileJson })
        .map((m) => JSON.stringify({ jsonrpc: "2.0", ...m })),
      hostileJson.map((update) =>
        JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update } }),
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(junk, { maxLength: 5 }), async (payloads) => {
        count("client");
        const failures: string[] = [];
        const [clientSide, agentSide] = createInMemoryTransportPair();
        const agent = new Connection(agentSide);
        agent.onRequest("initialize", () => ({
          protocolVersion: 2,
          info: { name: "a", version: "1" },
          capabilities: { session: {} },
        }));
        agent.onRequest("session/new", () => ({ sessionId: "s1" }));
        agent.onRequest("session/prompt", async () => {
          for (const payload of payloads) await agentSide.send(payload);
          const update = (u: object) => agent.notify("session/update", { sessionId: "s1", update: u });
          await update({ sessionUpdate: "state_update", state: "running" });
          await update({ sessionUpdate: "user_message", messageId: "u1", content: [{ type: "text", text: "hi" }] });
          setTimeout(() => void update({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" }), 0);
          return { messageId: "u1" };
        });
        agent.listen();
        const client = await connectToAgent(clientSide, {
          info: { name: "c", version: "1" },
          logger: watchingLogger(failures),
        });
        const session = await client.newSession({ cwd: "/tmp", mcpServers: [] });
        const turn = session.prompt("hi");
        const result = await Promise.race([
          turn.done,
          new Promise((resolve) => setTimeout(() => resolve("hang"), 2000)),
        ]);
        expect(result).toEqual({ stopReason: "end_turn" });
        expect(failures).toEqual([]);
        await client.close();
      }),
      { seed: SEED, numRuns: size(3_000, 30_000) },
    );
  });
});
