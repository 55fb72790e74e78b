// Decoding throughput: acp-kit's generated decoder vs the official SDK's zod schema vs bare
// JSON.parse, on the same 100,000 `session/update` notifications, in one run.
//
//   pnpm bench:decode            (from the repository root; needs `pnpm codegen` once)
//   pnpm bench:decode --json     one JSON object on stdout
//
// Each message is JSON text of a whole JSON-RPC notification. Per message:
//   floor    JSON.parse
//   acp-kit  JSON.parse + decoders["session/update"].params(message.params)
//   SDK      JSON.parse + zUpdateSessionNotification.safeParse(message.params)
//            (dist/v2/schema/zod.gen.js, loaded by path: it is not in the SDK's exports map)
// Mix: 70% agent_message_chunk, 10% tool_call_update with content, 10% state_update,
// 10% plan_update. One warm-up pass each, then REPETITIONS passes per stack, interleaved in a
// rotating order so machine noise and leftover garbage hit all three alike; the median pass is
// reported. Run with NODE_OPTIONS=--expose-gc to collect garbage before every pass.
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const MESSAGES = 100_000;
const REPETITIONS = 7;
const TARGET_VS_SDK = 10;
const TARGET_VS_FLOOR = 1 / 3;
const json = process.argv.includes("--json");

type Decoder = (value: unknown) => { ok: boolean };

/**
 * The generated decoders, imported from source by path (tsx compiles them): always the code
 * `pnpm codegen` last wrote, with no package build needed.
 */
async function loadDecoders(): Promise<Record<string, { params: Decoder }>> {
  const file = join(
    dirname(fileURLToPath(import.meta.url)),
    "..",
    "..",
    "packages",
    "protocol",
    "src",
    "generated",
    "decoders.ts",
  );
  const module = (await import(pathToFileURL(file).href)) as { decoders: Record<string, { params: Decoder }> };
  return module.decoders;
}

interface ZodLike {
  safeParse(value: unknown): { success: boolean };
}

async function loadSdkSchema(): Promise<ZodLike> {
  const v2Entry = fileURLToPath(import.meta.resolve("@agentclientprotocol/sdk/experimental/v2"));
  const zodFile = join(dirname(v2Entry), "..", "schema", "zod.gen.js");
  const module = (await import(pathToFileURL(zodFile).href)) as Record<string, ZodLike>;
  const schema = module.zUpdateSessionNotification;
  if (schema === undefined) throw new Error(`zUpdateSessionNotification not found in ${zodFile}`);
  return schema;
}

function update(i: number): Record<string, unknown> {
  const kind = i % 10;
  if (kind < 7) {
    return {
      sessionUpdate: "agent_message_chunk",
      messageId: `m${i >> 6}`,
      content: { type: "text", text: `Chunk ${i} of a streamed answer, with some ordinary prose in it.` },
    };
  }
  if (kind === 7) {
    return {
      sessionUpdate: "tool_call_update",
      toolCallId: `t${i}`,
      title: "Edit src/main.rs",
      kind: "edit",
      status: "in_progress",
      content: [
        { type: "content", content: { type: "text", text: "Applying the change" } },
        {
          type: "diff",
          changes: [{ operation: "modify", path: "/w/src/main.rs", fileType: "text" }],
          patch: { format: "git_patch", text: "diff --git a/x b/x\n" },
        },
      ],
      locations: [{ path: "/w/src/main.rs", line: 12 }],
    };
  }
  if (kind === 8) {
    return i % 20 === 8
      ? { sessionUpdate: "state_update", state: "running", background: [{ type: "terminal", terminalId: "term1" }] }
      : { sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" };
  }
  return {
    sessionUpdate: "plan_update",
    plan: {
      type: "items",
      planId: "p1",
      entries: [
        { content: "Read the code", priority: "high", status: "completed" },
        { content: "Write the fix", priority: "medium", status: "in_progress" },
        { content: "Run the tests", priority: "low", status: "pending" },
      ],
    },
  };
}

function messages(): string[] {
  return Array.from({ length: MESSAGES }, (_, i) =>
    JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "sess_1", update: update(i) } }),
  );
}

type Pass = (texts: readonly string[]) => number;

function timed(pass: Pass, texts: readonly string[]): number {
  const start = performance.now();
  const accepted = pass(texts);
  const seconds = (performance.now() - start) / 1000;
  if (accepted !== texts.length) throw new Error(`only ${accepted} of ${texts.length} messages were accepted`);
  return texts.length / seconds;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function main(): Promise<void> {
  const sdk = await loadSdkSchema();
  const texts = messages();
  const decodeParams = (await loadDecoders())["session/update"]?.params;
  if (decodeParams === undefined) throw new Error("no session/update decoder: run `pnpm codegen`");
  const passes: Record<"floor" | "acpKit" | "sdk", Pass> = {
    floor: (all) => {
      let n = 0;
      for (const text of all) if ((JSON.parse(text) as { params?: unknown }).params !== undefined) n++;
      return n;
    },
    acpKit: (all) => {
      let n = 0;
      for (const text of all) if (decodeParams((JSON.parse(text) as { params: unknown }).params).ok) n++;
      return n;
    },
    sdk: (all) => {
      let n = 0;
      for (const text of all) if (sdk.safeParse((JSON.parse(text) as { params: unknown }).params).success) n++;
      return n;
    },
  };
  // Decoding alone, on messages parsed beforehand: the decoder's own cost, for reference.
  const parsed = texts.map((text) => (JSON.parse(text) as { params: unknown }).params);
  const decodeOnly = (): number => {
    let n = 0;
    for (const params of parsed) if (decodeParams(params).ok) n++;
    return n;
  };
  const samples: Record<keyof typeof passes, number[]> = { floor: [], acpKit: [], sdk: [] };
  const decodeOnlySamples: number[] = [];
  for (const name of Object.keys(passes) as (keyof typeof passes)[]) timed(passes[name], texts); // warm-up
  const names = Object.keys(passes) as (keyof typeof passes)[];
  for (let r = 0; r < REPETITIONS; r++) {
    // Rotate the order so the garbage one stack leaves behind does not always land on the same next one.
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length] as keyof typeof passes;
      (globalThis as { gc?: () => void }).gc?.();
      samples[name].push(timed(passes[name], texts));
    }
    decodeOnlySamples.push(timed(decodeOnly, texts));
  }
  const floor = median(samples.floor);
  const acpKit = median(samples.acpKit);
  const sdkRate = median(samples.sdk);
  const result = {
    benchmark: "decode",
    messages: MESSAGES,
    repetitions: REPETITIONS,
    messagesPerSecond: {
      jsonParseFloor: Math.round(floor),
      acpKit: Math.round(acpKit),
      sdk: Math.round(sdkRate),
      acpKitDecodeOnly: Math.round(median(decodeOnlySamples)),
    },
    ratios: {
      acpKitVsSdk: { value: acpKit / sdkRate, target: TARGET_VS_SDK, met: acpKit / sdkRate >= TARGET_VS_SDK },
      acpKitVsFloor: { value: acpKit / floor, target: TARGET_VS_FLOOR, met: acpKit / floor >= TARGET_VS_FLOOR },
    },
  };
  if (json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  const rate = (n: number): string => `${Math.round(n).toLocaleString("en-US").padStart(12)} msg/s`;
  process.stdout.write(
    [
      `session/update decoding, ${MESSAGES.toLocaleString("en-US")} messages, median of ${REPETITIONS} passes`,
      `  JSON.parse alone (floor)   ${rate(floor)}`,
      `  acp-kit decode             ${rate(acpKit)}`,
      `  official SDK (zod)         ${rate(sdkRate)}`,
      `  (acp-kit decode alone, pre-parsed input: ${rate(median(decodeOnlySamples)).trim()})`,
      `  acp-kit / SDK     ${result.ratios.acpKitVsSdk.value.toFixed(2)}x   (target >= ${TARGET_VS_SDK}x)   ${result.ratios.acpKitVsSdk.met ? "met" : "NOT met"}`,
      `  acp-kit / floor   ${result.ratios.acpKitVsFloor.value.toFixed(3)}    (target >= ${TARGET_VS_FLOOR.toFixed(3)})  ${result.ratios.acpKitVsFloor.met ? "met" : "NOT met"}`,
      "",
    ].join("\n"),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:decode failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
