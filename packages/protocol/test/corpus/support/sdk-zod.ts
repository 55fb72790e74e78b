// The official SDK's zod schemas, loaded by file path (they are not in its exports map).
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const v2Entry = fileURLToPath(import.meta.resolve("@agentclientprotocol/sdk/experimental/v2"));
const zodFile = join(dirname(v2Entry), "..", "schema", "zod.gen.js");

export interface ZodLike {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: unknown };
}

export const sdkZod = (await import(pathToFileURL(zodFile).href)) as Record<string, ZodLike>;

/** The SDK's schema for a def (`zContentBlock` for `ContentBlock`). */
export function sdkSchemaFor(def: string): ZodLike {
  const schema = sdkZod[`z${def}`];
  if (schema === undefined) throw new Error(`the SDK has no z${def}`);
  return schema;
}
