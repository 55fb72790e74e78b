// No dual-package hazard inside a package: its entry points share one copy of each module, so a
// value two entry points both export is the same value (and `instanceof` holds across them), as
// it is with the tsc build, where Node's module cache does that.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { runInNode } from "../src/node-process.js";
import { BUNDLED } from "../src/packages.js";

interface Sharing {
  /** `entry a / entry b: name` for each name whose identity differs between the two builds. */
  readonly differences: string[];
  /** How many names two entries share as one value (the check is not empty). */
  readonly sharedValues: number;
}

describe("one copy of each module per package", () => {
  it.each(BUNDLED.filter((pkg) => pkg.entries.size > 1))(
    "$name: a value two entry points export is one value, as with the tsc build",
    (pkg) => {
      const specifiers = [...pkg.entries.keys()];
      const tscUrls = specifiers.map((s) => pathToFileURL(join(pkg.dir, pkg.entries.get(s)?.default ?? "")).href);
      const sharing = runInNode<Sharing>(`
        const specifiers = ${JSON.stringify(specifiers)};
        const tscUrls = ${JSON.stringify(tscUrls)};
        const bundle = [];
        const tsc = [];
        for (const s of specifiers) bundle.push(await import(s));
        for (const u of tscUrls) tsc.push(await import(u));
        const differences = [];
        let sharedValues = 0;
        for (let i = 0; i < specifiers.length; i++) {
          for (let j = i + 1; j < specifiers.length; j++) {
            for (const name of Object.keys(bundle[i])) {
              if (!(name in bundle[j])) continue;
              const same = bundle[i][name] === bundle[j][name];
              if (same && typeof bundle[i][name] === "function") sharedValues++;
              if (same !== (tsc[i][name] === tsc[j][name])) differences.push(specifiers[i] + " / " + specifiers[j] + ": " + name);
            }
          }
        }
        report({ differences, sharedValues });
      `);
      expect(sharing.differences).toEqual([]);
      expect(sharing.sharedValues).toBeGreaterThan(0);
    },
  );

  it("a ConnectionError raised through the protocol root is an instance of the /jsonrpc class", () => {
    const result = runInNode<{ name: string; kind: string; isConnectionError: boolean; isLocalError: boolean }>(`
      import { createClientSideConnection } from "@acp-kit/protocol";
      import { ConnectionError, LocalError, createInMemoryTransportPair } from "@acp-kit/protocol/jsonrpc";
      const [end] = createInMemoryTransportPair();
      const connection = createClientSideConnection(end);
      connection.listen();
      await connection.close();
      const error = await connection.notifyExt("_probe/after_close", {}).then(() => undefined, (e) => e);
      report({ name: error?.name, kind: error?.kind, isConnectionError: error instanceof ConnectionError, isLocalError: error instanceof LocalError });
    `);
    expect(result).toEqual({ name: "ConnectionError", kind: "closed", isConnectionError: true, isLocalError: true });
  });

  it("every error class of every package extends the one LocalError of @acp-kit/protocol/jsonrpc", () => {
    const specifiers = BUNDLED.flatMap((pkg) => [...pkg.entries.keys()]);
    const result = runInNode<{ checked: string[]; foreign: string[] }>(`
      import { LocalError } from "@acp-kit/protocol/jsonrpc";
      const checked = [];
      const foreign = [];
      for (const specifier of ${JSON.stringify(specifiers)}) {
        for (const [name, value] of Object.entries(await import(specifier))) {
          if (typeof value !== "function" || value === LocalError) continue;
          let proto = Object.getPrototypeOf(value.prototype ?? {});
          while (proto && proto.constructor?.name !== "LocalError") proto = Object.getPrototypeOf(proto);
          if (!proto) continue;
          checked.push(specifier + ": " + name);
          if (!(value.prototype instanceof LocalError)) foreign.push(specifier + ": " + name);
        }
      }
      report({ checked, foreign });
    `);
    expect(result.foreign).toEqual([]);
    expect(result.checked).toEqual(
      expect.arrayContaining(["@acp-kit/agent: SessionBusyError", "@acp-kit/client: ResumeRefusedError"]),
    );
  });
});
