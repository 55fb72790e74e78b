// The client's table split in two: what it decodes from the start and what it loads on first
// use are, together, exactly `clientSideDecoders`, and the deferred module needs nothing of
// decoders.ts at run time (so a bundler can put it in a chunk of its own).
import { describe, expect, it } from "vitest";
import { loadPinnedSchema } from "../schema-source.ts";
import { CLIENT_DEFERRED_PARAMS, emitDeferredDecoders } from "./deferred.ts";
import { emitDecoders } from "./emit.ts";

/** `"method" part decoder` for each entry of the table `name` in `text`. */
function parts(text: string, name: string): string[] {
  const start = text.indexOf(`export const ${name} = {`);
  expect(start).not.toBe(-1);
  const rows = text.slice(start, text.indexOf("} as const", start)).split("\n").slice(1).filter(Boolean);
  return rows.flatMap((row) => {
    const method = /^ {2}("[^"]+")/.exec(row)?.[1];
    return [...row.matchAll(/(params|result): (\w+)/g)].map((m) => `${method} ${m[1]} ${m[2]}`);
  });
}

describe("the client's deferred decoders", () => {
  const { schema } = loadPinnedSchema();
  const modules = emitDeferredDecoders(schema);

  it("start + deferred = clientSideDecoders, each part once", () => {
    expect(modules).toBeDefined();
    const start = parts(modules?.start ?? "", "clientStartDecoders");
    const deferred = parts(modules?.deferred ?? "", "clientDeferredDecoders");
    expect(deferred).toEqual(['"elicitation/create" params decodeCreateElicitationRequest']);
    expect(start.filter((part) => deferred.includes(part))).toEqual([]);
    expect([...start, ...deferred].sort()).toEqual(parts(emitDecoders(schema), "clientSideDecoders").sort());
  });

  it("the deferred module imports only types from decoders.ts, and is straight-line code", () => {
    const text = modules?.deferred ?? "";
    const imports = text.split("\n").filter((line) => line.startsWith("import "));
    for (const line of imports.filter((l) => l.includes('"./decoders.js"'))) expect(line).toMatch(/^import type /);
    const functions = text.slice(0, text.indexOf("export const clientDeferredDecoders"));
    expect(functions).not.toMatch(/=>|\bfunction\s*\(|\btry\b|\bthrow\b|\.\.\./);
  });

  it("nothing is deferred for a schema without the deferred methods", () => {
    const toy = {
      $defs: {
        ToyRequest: { type: "object", properties: {}, "x-side": "client", "x-method": "toy/ask" },
        ToyResponse: { type: "object", properties: {}, "x-side": "client", "x-method": "toy/ask" },
      },
    };
    expect(CLIENT_DEFERRED_PARAMS).not.toContain("toy/ask");
    expect(emitDeferredDecoders(toy)).toBeUndefined();
  });
});
