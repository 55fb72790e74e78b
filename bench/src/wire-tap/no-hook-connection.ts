// The baseline an unused wire tap is measured against: our built `Connection` with the tap's
// per-message hook taken out, i.e. the code as it would be without the tap. The built JSON-RPC
// core (self-contained: it imports only its own files) is copied to a temp directory, the
// `this.#observer?.inbound(...)` statements are removed from its connection.js, and the copy is
// imported. Everything else is byte for byte the code the other sides run.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Connection } from "@acp-kit/protocol/jsonrpc";

const HOOK = /^\s*this\.#observer\?\.inbound\([^;]*\);\n/gm;
/** How many per-message hook statements the connection has (the side fails if this changes). */
const HOOKS = 2;

/** The hook-free `Connection` class, and `remove` for its temp directory (call it when done). */
export async function connectionWithoutTapHook(): Promise<{ Connection: typeof Connection; remove(): void }> {
  const require = createRequire(import.meta.url);
  const built = dirname(require.resolve("@acp-kit/protocol/package.json"));
  const source = join(built, "dist", "jsonrpc");
  const copy = mkdtempSync(join(tmpdir(), "acp-bench-no-tap-hook-"));
  for (const file of readdirSync(source)) if (file.endsWith(".js")) copyFileSync(join(source, file), join(copy, file));
  const path = join(copy, "connection.js");
  const code = readFileSync(path, "utf8");
  const found = code.match(HOOK)?.length ?? 0;
  if (found !== HOOKS)
    throw new Error(
      `expected ${HOOKS} tap hooks in ${join(source, "connection.js")}, found ${found}: update ${import.meta.url}`,
    );
  writeFileSync(path, code.replace(HOOK, ""));
  const module = (await import(pathToFileURL(join(copy, "index.js")).href)) as { Connection: typeof Connection };
  return { Connection: module.Connection, remove: () => rmSync(copy, { recursive: true, force: true }) };
}
