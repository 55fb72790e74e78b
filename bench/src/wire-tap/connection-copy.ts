// Fresh copies of our built JSON-RPC `Connection`, one per variant of the wire-tap case, so that
// each variant's code is compiled and optimized on its own (a tapped connection does not make the
// untapped one's call sites polymorphic). The built core is self-contained (it imports only its
// own files): its files are copied to a temp directory and the copy is imported. With
// `withoutTapHook`, the `this.#parts.observer?.inbound(...)` statements are removed from the
// copy's inbound.js (where the connection reads what arrives): the code as it would be without
// the tap, everything else byte for byte the same.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Connection } from "@acp-kit/protocol/jsonrpc";

const HOOK = /^\s*this\.#parts\.observer\?\.inbound\([^;]*\);\n/gm;
/** How many per-message hook statements the built inbound path has (the copy fails if this changes). */
const HOOKS = 2;

export interface ConnectionCopy {
  Connection: typeof Connection;
  /** Removes the copy's temp directory. */
  remove(): void;
}

export async function connectionCopy(options: { withoutTapHook: boolean }): Promise<ConnectionCopy> {
  const require = createRequire(import.meta.url);
  const source = join(dirname(require.resolve("@acp-kit/protocol/package.json")), "dist", "jsonrpc");
  const copy = mkdtempSync(join(tmpdir(), "acp-bench-connection-"));
  for (const file of readdirSync(source)) if (file.endsWith(".js")) copyFileSync(join(source, file), join(copy, file));
  if (options.withoutTapHook) {
    const path = join(copy, "inbound.js");
    const code = readFileSync(path, "utf8");
    const found = code.match(HOOK)?.length ?? 0;
    if (found !== HOOKS) {
      rmSync(copy, { recursive: true, force: true });
      throw new Error(
        `expected ${HOOKS} tap hooks in ${join(source, "inbound.js")}, found ${found}: update ${import.meta.url}`,
      );
    }
    writeFileSync(path, code.replace(HOOK, ""));
  }
  const module = (await import(pathToFileURL(join(copy, "index.js")).href)) as { Connection: typeof Connection };
  return { Connection: module.Connection, remove: () => rmSync(copy, { recursive: true, force: true }) };
}
