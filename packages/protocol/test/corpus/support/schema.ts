// The pinned ACP schema, read from the installed SDK package (never copied into the repository).
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

export type JsonSchema = Record<string, unknown>;

export const acpSchema = require("@agentclientprotocol/sdk/schema/v2/schema.json") as { $defs: Record<string, JsonSchema> };
export const defNames: readonly string[] = Object.keys(acpSchema.$defs);
