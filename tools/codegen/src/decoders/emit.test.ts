// The emitter on toy schemas: each x-deserialize rule and union form in isolation, run for
// real (the emitted TypeScript is transpiled and imported with the protocol package's runtime),
// plus the loud failures that keep an unsupported schema construct from being skipped.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { UnsupportedSchemaError } from "../model/nodes.ts";
import { loadPinnedSchema } from "../schema-source.ts";
import { emitDecoders } from "./emit.ts";

const runtime = pathToFileURL(resolve(import.meta.dirname, "../../../../packages/protocol/src/decode/index.ts")).href;
const scratch = mkdtempSync(join(tmpdir(), "acp-kit-decoders-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Decoder = (value: unknown) => { ok: boolean; value?: unknown; error?: { path: string; message: string } };
let counter = 0;

/** Emits decoders for `defs` (a schema with a `Request`/`Response` pair for method tables). */
async function compileToy(defs: Record<string, unknown>): Promise<Record<string, Decoder>> {
  const schema = {
    $defs: {
      ...defs,
      ToyRequest: { type: "object", properties: {}, "x-side": "agent", "x-method": "toy/run" },
      ToyResponse: { type: "object", properties: {}, "x-side": "agent", "x-method": "toy/run" },
    },
  };
  const source = emitDecoders(schema).replaceAll('"../decode/index.js"', JSON.stringify(runtime));
  const js = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
  }).outputText;
  const file = join(scratch, `toy${counter++}.mjs`);
  writeFileSync(file, js);
  return (await import(pathToFileURL(file).href)) as Record<string, Decoder>;
}

const meta = { type: ["object", "null"], "x-deserialize-default-on-error": true, additionalProperties: true };

describe("x-deserialize rules", () => {
  it("default-on-error: nullable becomes absent, arrays []; schema default wins; strict rejects", async () => {
    const d = await compileToy({
      Caps: { type: "object", properties: { flag: { type: "boolean" } } },
      Thing: {
        type: "object",
        properties: {
          id: { type: "string" },
          title: { type: ["string", "null"], "x-deserialize-default-on-error": true },
          tags: {
            type: "array",
            items: { type: "string" },
            "x-deserialize-default-on-error": true,
            "x-deserialize-skip-invalid-items": true,
          },
          caps: { "x-deserialize-default-on-error": true, default: {}, allOf: [{ $ref: "#/$defs/Caps" }] },
          _meta: meta,
        },
        required: ["id"],
      },
    });
    const input = { id: "a", title: 1, tags: "x", caps: { flag: "no" }, _meta: 3, extra: true };
    expect(d.decodeThing?.(input)).toEqual({ ok: true, value: { id: "a", tags: [], caps: {}, extra: true } });
    expect(d.validateThing?.(input)).toEqual({
      ok: false,
      error: { path: "/title", message: "must be a string or null" },
    });
    expect(d.decodeThing?.({ title: "t" })).toEqual({
      ok: false,
      error: { path: "/id", message: "required property is missing" },
    });
    const valid = { id: "a", title: null, tags: ["x"], caps: { flag: true }, _meta: {} };
    expect(d.decodeThing?.(valid).value).toBe(valid);
  });

  it("skip-invalid-items: drops bad items in order, fails on a non-array unless default-on-error", async () => {
    const d = await compileToy({
      List: {
        type: "object",
        properties: {
          items: { type: "array", items: { type: "integer", minimum: 0 }, "x-deserialize-skip-invalid-items": true },
        },
        required: ["items"],
      },
    });
    expect(d.decodeList?.({ items: [1, -1, "2", 3] })).toEqual({ ok: true, value: { items: [1, 3] } });
    expect(d.validateList?.({ items: [1, -1] })).toEqual({
      ok: false,
      error: { path: "/items/1", message: "must be an integer >= 0" },
    });
    expect(d.decodeList?.({ items: {} })).toEqual({
      ok: false,
      error: { path: "/items", message: "must be an array" },
    });
  });

  it("default-on-null: null is [], anything else invalid is still an error", async () => {
    const d = await compileToy({
      Req: {
        type: "object",
        properties: { servers: { type: "array", items: { type: "string" }, "x-deserialize-default-on-null": true } },
      },
    });
    expect(d.decodeReq?.({ servers: null })).toEqual({ ok: true, value: { servers: [] } });
    expect(d.validateReq?.({ servers: null }).ok).toBe(false);
    expect(d.decodeReq?.({ servers: [1] })).toEqual({
      ok: false,
      error: { path: "/servers/0", message: "must be a string" },
    });
    expect(d.decodeReq?.({})).toEqual({ ok: true, value: {} });
  });
});

describe("unions", () => {
  const tagged = {
    A: { type: "object", properties: { a: { type: "string" }, _meta: meta }, required: ["a"] },
    U: {
      anyOf: [
        {
          type: "object",
          properties: { kind: { type: "string", const: "a" } },
          required: ["kind"],
          allOf: [{ $ref: "#/$defs/A" }],
        },
        {
          title: "other",
          type: "object",
          properties: { kind: { type: "string" }, id: { type: "string" } },
          required: ["kind", "id"],
          not: {
            anyOf: [{ type: "object", properties: { kind: { type: "string", const: "a" } }, required: ["kind"] }],
          },
          additionalProperties: true,
        },
      ],
    },
    E: {
      anyOf: [
        { type: "string", const: "x" },
        { type: "string", const: "y" },
        { title: "other", type: "string" },
      ],
    },
  };

  it("dispatches on the tag; known tag + bad payload fails; unknown tags need the shared fields", async () => {
    const d = await compileToy(tagged);
    expect(d.decodeU?.({ kind: "a", a: "1", _meta: 0 })).toEqual({ ok: true, value: { kind: "a", a: "1" } });
    expect(d.decodeU?.({ kind: "a", id: "x" })).toEqual({
      ok: false,
      error: { path: "/a", message: "required property is missing" },
    });
    const unknown = { kind: "b", id: "x", payload: [1] };
    expect(d.decodeU?.(unknown).value).toBe(unknown);
    expect(d.decodeU?.({ kind: "b" })).toEqual({
      ok: false,
      error: { path: "/id", message: "required property is missing" },
    });
    expect(d.decodeU?.({ kind: 1 })).toEqual({ ok: false, error: { path: "/kind", message: "must be a string" } });
    expect(d.decodeU?.([])).toEqual({ ok: false, error: { path: "", message: "must be an object" } });
  });

  it("open enums keep unknown strings", async () => {
    const d = await compileToy(tagged);
    expect(d.decodeE?.("z")).toEqual({ ok: true, value: "z" });
    expect(d.decodeE?.(1)).toEqual({ ok: false, error: { path: "", message: "must be a string" } });
  });

  it("oneOf: exactly one branch; a strictly valid value is never reinterpreted by a repair", async () => {
    const d = await compileToy({
      S: {
        type: "object",
        properties: {
          sessionId: { type: "string" },
          note: { type: ["string", "null"], "x-deserialize-default-on-error": true },
        },
        required: ["sessionId"],
      },
      R: { type: "object", properties: { requestId: { type: "integer" } }, required: ["requestId"] },
      Scoped: {
        type: "object",
        properties: {},
        oneOf: [
          { title: "Session", allOf: [{ $ref: "#/$defs/S" }] },
          { title: "Request", allOf: [{ $ref: "#/$defs/R" }] },
        ],
      },
    });
    expect(d.decodeScoped?.({ sessionId: "s" }).ok).toBe(true);
    expect(d.decodeScoped?.({ sessionId: "s", requestId: 1 })).toEqual({
      ok: false,
      error: { path: "", message: "must match exactly one of Session, Request, but matches several" },
    });
    // Strictly, only Request matches (note is bad for S); decoding must not repair S into a second match.
    const strictlyRequest = { sessionId: "s", note: 5, requestId: 1 };
    expect(d.decodeScoped?.(strictlyRequest).value).toBe(strictlyRequest);
  });
});

describe("generation fails loudly on what it does not implement", () => {
  const cases: [string, Record<string, unknown>][] = [
    ["a keyword it does not know", { X: { type: "string", pattern: "^a" } }],
    ["$ref with siblings", { X: { $ref: "#/$defs/Y", type: "object" }, Y: { type: "string" } }],
    ["an unknown format", { X: { type: "string", format: "hostname" } }],
    [
      "a catch-all that does not exclude exactly the known tags",
      {
        X: {
          anyOf: [
            { type: "object", properties: { t: { type: "string", const: "a" } }, required: ["t"] },
            { type: "object", properties: { t: { type: "string" } }, required: ["t"], not: { anyOf: [] } },
          ],
        },
      },
    ],
    ["unevaluatedProperties other than true", { X: { type: "object", properties: {}, unevaluatedProperties: false } }],
    ["a $ref to a missing def", { X: { $ref: "#/$defs/Nope" } }],
  ];
  it.each(cases)("%s", (_name, defs) => {
    expect(() => emitDecoders({ $defs: defs })).toThrow(UnsupportedSchemaError);
  });
});

describe("the pinned ACP schema", () => {
  it("emits a decoder and a validator for every def, deterministically", () => {
    const { schema } = loadPinnedSchema();
    const text = emitDecoders(schema);
    for (const def of Object.keys(schema.$defs)) {
      const type = def === "Error" ? "AcpErrorObject" : def;
      expect(text).toContain(`export function decode${type}(value: unknown)`);
      expect(text).toContain(`export function validate${type}(value: unknown)`);
    }
    expect(text).toContain('"session/update": { params: decodeUpdateSessionNotification },');
    expect(text).toContain('"$/cancel_request": { params: decodeCancelRequestNotification },');
    expect(emitDecoders(schema)).toBe(text);
    // Straight-line code: no closures created per call, no exceptions on the decode path.
    const functions = text.slice(0, text.indexOf("export interface MethodDecoders"));
    expect(functions).not.toMatch(/=>|\bfunction\s*\(|\btry\b|\bthrow\b|\.\.\./);
  });
});

describe("the per-side tables", () => {
  const object = (side: string, method: string) => ({
    type: "object",
    properties: {},
    "x-side": side,
    "x-method": method,
  });
  const defs = {
    RunRequest: object("agent", "run"),
    RunResponse: object("agent", "run"),
    AskRequest: object("client", "ask"),
    AskResponse: object("client", "ask"),
    StopNotification: object("agent", "stop"),
    NewsNotification: object("client", "news"),
    PingNotification: object("protocol", "ping"),
  };
  /** The parts (`params`, `result`) of each method of an emitted table. */
  const partsOf = (table: unknown) =>
    Object.fromEntries(
      Object.entries(Object(table)).map(([method, parts]) => [method, Object.keys(Object(parts)).sort()]),
    );

  it("each side decodes the params of what it handles and the results of what it sends", async () => {
    const d = await compileToy(defs);
    expect(partsOf(d.agentSideDecoders)).toEqual({
      run: ["params"],
      "toy/run": ["params"],
      ask: ["result"],
      stop: ["params"],
      ping: ["params"],
    });
    expect(partsOf(d.clientSideDecoders)).toEqual({
      run: ["result"],
      "toy/run": ["result"],
      ask: ["params"],
      news: ["params"],
      ping: ["params"],
    });
    // The entries are the generated decoders themselves (a bundler keeps only those referenced).
    const [agent, client, all] = [d.agentSideDecoders, d.clientSideDecoders, d.decoders].map(Object);
    expect(agent.run.params).toBe(all.run.params);
    expect(agent.ask.result).toBe(all.ask.result);
    expect(client.run.result).toBe(all.run.result);
    expect(client.ask.params).toBe(all.ask.params);
  });

  it("on the pinned schema, the two sides together are the whole table, each part on one side", () => {
    const text = emitDecoders(loadPinnedSchema().schema);
    const rows = (name: string): string[] => {
      const start = text.indexOf(`export const ${name} = {`);
      const end = text.indexOf("} as const", start);
      return text.slice(start, end).split("\n").slice(1).filter(Boolean);
    };
    const parts = (name: string) =>
      rows(name).flatMap((row) => {
        const method = /^ {2}("[^"]+")/.exec(row)?.[1];
        return [...row.matchAll(/(params|result): (\w+)/g)].map((m) => `${method} ${m[1]} ${m[2]}`);
      });
    const agent = parts("agentSideDecoders");
    const client = parts("clientSideDecoders");
    const both = agent.filter((part) => client.includes(part));
    expect(both).toEqual(['"$/cancel_request" params decodeCancelRequestNotification']);
    expect([...new Set([...agent, ...client])].sort()).toEqual(parts("decoders").sort());
  });
});
