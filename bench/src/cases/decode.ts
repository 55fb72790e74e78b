// Case decode: `JSON.parse` + decoding of 20,000 `session/update` notifications (the mixed
// workload), one side per process:
//   ours   @acp-kit/protocol's generated decoder for `session/update` params
//   sdk    the SDK's zod schema for the same notification (`zUpdateSessionNotification`)
//   floor  `JSON.parse` alone
// Each side warms up with one pass, then takes the median of 3 passes.
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { decoders } from "@acp-kit/protocol";
import { mixedUpdate } from "../full/mixed-updates.js";
import { type Figures, quick, runSide } from "./side.js";

const MESSAGES = quick ? 2_000 : 20_000;
const texts = Array.from({ length: MESSAGES }, (_, i) =>
  JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update: mixedUpdate(i) } }),
);

async function sdkCheck(): Promise<(value: unknown) => boolean> {
  const v2Entry = fileURLToPath(import.meta.resolve("@agentclientprotocol/sdk/experimental/v2"));
  const zodFile = join(dirname(v2Entry), "..", "schema", "zod.gen.js");
  const module = (await import(pathToFileURL(zodFile).href)) as Record<
    string,
    { safeParse(v: unknown): { success: boolean } }
  >;
  const schema = module.zUpdateSessionNotification;
  if (schema === undefined) throw new Error(`zUpdateSessionNotification not found in ${zodFile}`);
  return (value) => schema.safeParse(value).success;
}

function rate(check: (params: unknown) => boolean): Figures {
  const pass = (): number => {
    const started = performance.now();
    for (const text of texts) {
      if (!check((JSON.parse(text) as { params: unknown }).params)) throw new Error("a valid update was refused");
    }
    return MESSAGES / ((performance.now() - started) / 1000);
  };
  pass();
  const samples = Array.from({ length: 3 }, pass).sort((a, b) => a - b);
  return { msgPerSec: samples[1] as number };
}

const decodeParams = decoders["session/update"].params;

await runSide({
  ours: async () => rate((params) => decodeParams(params).ok),
  sdk: async () => rate(await sdkCheck()),
  floor: async () => rate(() => true),
});
