/**
 * Property: a random v2 turn of a `defineAgent` agent, projected to v1 by the agent and read
 * back through our client's v1 adapter, leaves the same session store as the plain v2 path,
 * except the lossy fields docs/v1.md lists (the user message's id, plan ids, message
 * metadata, tool call capabilities, a diff's change list beyond one whole-file change).
 *
 * The v1 wire in the middle: the client asks for 2 as always; a one-line shim lowers the
 * request to 1 on its way to the agent, as an agent that only speaks v1 would answer.
 */
import { defineAgent, type Turn } from "@acp-kit/agent";
import { type AcpClient, connectToAgent, type SessionSnapshot } from "@acp-kit/client";
import { createInMemoryTransportPair, type Transport } from "@acp-kit/protocol/jsonrpc";
import { wholeFilePatch } from "@acp-kit/protocol/v1";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

type Step =
  | { type: "text"; chunks: string[] }
  | { type: "thought"; chunks: string[] }
  | {
      type: "tool";
      title: string;
      kind: "read" | "edit" | "execute" | "other";
      end: "completed" | "failed";
      content: ({ text: string } | { path: string; oldText: string | null; newText: string })[];
    }
  | { type: "plan"; entries: { content: string; status: "pending" | "in_progress" | "completed" }[] };

const word = fc.string({ minLength: 1, maxLength: 8 });
const line = fc.array(word, { maxLength: 3 }).map((ws) => `${ws.join(" ")}\n`);
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ type: fc.constant("text" as const), chunks: fc.array(word, { minLength: 1, maxLength: 5 }) }),
  fc.record({ type: fc.constant("thought" as const), chunks: fc.array(word, { minLength: 1, maxLength: 3 }) }),
  fc.record({
    type: fc.constant("tool" as const),
    title: word,
    kind: fc.constantFrom("read" as const, "edit" as const, "execute" as const, "other" as const),
    end: fc.constantFrom("completed" as const, "failed" as const),
    content: fc.array(
      fc.oneof(
        fc.record({ text: word }),
        fc.record({
          path: word.map((w) => `/work/${w.replace(/[^a-z0-9]/gi, "x")}.txt`),
          oldText: fc.option(
            fc.array(line, { maxLength: 3 }).map((ls) => ls.join("")),
            { nil: null },
          ),
          newText: fc.array(line, { maxLength: 3 }).map((ls) => ls.join("")),
        }),
      ),
      { maxLength: 3 },
    ),
  }),
  fc.record({
    type: fc.constant("plan" as const),
    entries: fc.array(
      fc.record({
        content: word,
        status: fc.constantFrom("pending" as const, "in_progress" as const, "completed" as const),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  }),
);
const turnScript = fc.record({
  steps: fc.array(step, { maxLength: 6 }),
  stopReason: fc.constantFrom("end_turn" as const, "max_tokens" as const, "refusal" as const),
});
type Script = { steps: Step[]; stopReason: "end_turn" | "max_tokens" | "refusal" };

async function play(turn: Turn, script: Script): Promise<Script["stopReason"]> {
  // One plan per turn, updated by later plan steps (several plans are a documented loss).
  let plan: ReturnType<Turn["plan"]> | undefined;
  for (const s of script.steps) {
    if (s.type === "text" || s.type === "thought") {
      const message = s.type === "text" ? turn.message() : turn.thought();
      for (const chunk of s.chunks) await message.append(chunk);
    } else if (s.type === "tool") {
      const call = turn.toolCall({ title: s.title, kind: s.kind });
      for (const item of s.content) {
        if ("text" in item) await call.appendContent(item.text);
        else
          await call.diff([{ operation: item.oldText === null ? "add" : "modify", path: item.path }], {
            format: "git_patch",
            text: wholeFilePatch(item.path, item.oldText, item.newText),
          });
      }
      await (s.end === "completed" ? call.complete() : call.fail());
    } else if (plan === undefined) {
      plan = turn.plan(s.entries);
    } else {
      await plan.set(s.entries);
    }
  }
  return script.stopReason;
}

/** Lowers the client's requested version to 1 on the wire (an agent that only speaks v1). */
function asV1Agent(transport: Transport): Transport {
  return {
    start: (sink) => transport.start(sink),
    close: () => transport.close(),
    send: (payload) =>
      transport.send(
        payload.replace(
          '"method":"initialize","params":{"protocolVersion":2',
          '"method":"initialize","params":{"protocolVersion":1',
        ),
      ),
  };
}

async function storeAfter(script: Script, v1: boolean): Promise<{ snapshot: SessionSnapshot; version: number }> {
  const agent = defineAgent({
    info: { name: "property-agent", version: "0" },
    prompt: (turn) => play(turn, script),
  });
  const [clientSide, agentSide] = createInMemoryTransportPair();
  const served = agent.serve(agentSide);
  const client: AcpClient = await connectToAgent(v1 ? asV1Agent(clientSide) : clientSide, {
    info: { name: "property-client", version: "0" },
  });
  try {
    const session = await client.newSession({ cwd: "/work" });
    await session.prompt("go").done;
    return { snapshot: session.store.getSnapshot(), version: client.protocolVersion };
  } finally {
    await client.close();
    await served.closed;
  }
}

/** The store minus the documented lossy fields. */
function comparable(snapshot: SessionSnapshot): unknown {
  // Two runs mint different ids: each id is compared by its order of first appearance.
  const ids = new Map<unknown, string>();
  const id = (value: unknown): string => {
    if (!ids.has(value)) ids.set(value, `#${ids.size}`);
    return ids.get(value) as string;
  };
  return {
    timeline: snapshot.timeline.map((entry) => {
      const e = entry as unknown as Record<string, unknown>;
      if (e.type === "message")
        return { message: e.kind, content: e.content, ...(e.kind === "user" ? {} : { id: id(e.messageId) }) };
      if (e.type === "tool_call") {
        const call = snapshot.toolCalls.get(e.toolCallId as string);
        return {
          tool: id(e.toolCallId),
          title: call?.title,
          kind: call?.kind,
          status: call?.status,
          content: call?.content,
          locations: call?.locations,
        };
      }
      if (e.type === "plan") {
        const plan = snapshot.plans.get(e.planId as string)?.plan as { entries?: unknown } | undefined;
        return { plan: plan?.entries };
      }
      return { other: e.type };
    }),
    state: snapshot.state.state,
    stopReason: (snapshot.state as { stopReason?: unknown }).stopReason,
    configOptions: snapshot.configOptions,
  };
}

describe("v1 projection read back through the v1 adapter", () => {
  it("yields the v2 path's store, except the documented lossy fields", async () => {
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(turnScript, async (script) => {
        cases++;
        const direct = await storeAfter(script, false);
        const viaV1 = await storeAfter(script, true);
        expect(direct.version).toBe(2);
        expect(viaV1.version).toBe(1);
        expect(comparable(viaV1.snapshot)).toEqual(comparable(direct.snapshot));
      }),
      { numRuns: 200 },
    );
    process.stdout.write(`v1 projection property: ${cases} cases\n`);
  }, 120_000);
});
