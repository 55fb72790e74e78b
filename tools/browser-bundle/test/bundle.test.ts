// A production browser app (client + WebSocket transport, built by Vite) leaves the outgoing
// validators out and stays within its size budget; a development build keeps them. The v1
// adapter (v1 decoders and bridge) is a chunk of its own, loaded only when an agent answers v1.
import { describe, expect, it } from "vitest";
import { type AppBundle, buildApp, kb } from "../src/build-app.js";

/**
 * gzip budget of what a production page loads up front, a guard against regressions (the
 * package's target is 20 KB, not reached; `pnpm size` lists what each module costs): 34.7 KB
 * since a turn handle that lost the first updates of its work says so (its iterator fails
 * rather than starting late) and the depth check walks arrays by index; 33.1 KB since the
 * typed connection routes by `METHOD_ROUTES` (not `METHODS` and its type names);
 * 33.3 KB since the client loads its `elicitation/create` decoder and its resume policy on
 * first use (34.5 KB before them; the page is built as an app since, its entry exporting
 * nothing: 34.4 KB when the entry's exports were kept, which puts what a lazy chunk shares with
 * the page in chunks of their own and costs more as lazy chunks are added); 34.5 KB since
 * ACP's rules have one home in the protocol package (the capability table checked in both
 * directions, the shared update fold); 30.9 KB with the turn model and the limits (24 KB
 * before them; 30.4 KB before the validators could be dropped, 40.9 KB with the v1 adapter in
 * the initial load).
 */
const PRODUCTION_GZIP_BUDGET = 34.7 * 1024;

const has = (bundle: AppBundle, suffix: string) => [...bundle.modules.keys()].some((id) => id.endsWith(suffix));

describe("browser app bundle (Vite)", () => {
  it("production: no outgoing validators, within budget", { timeout: 120_000 }, async () => {
    const production = await buildApp("production");
    console.log(
      `production bundle: ${kb(production.bytes)} minified, ${kb(production.gzipBytes)} gzip up front, ${kb(production.lazy.gzipBytes)} gzip on demand`,
    );
    expect(has(production, "protocol/dist/acp/outgoing-validators.js")).toBe(false);
    expect(has(production, "protocol/dist/generated/v1/decoders.js")).toBe(false);
    expect([...production.lazy.modules.keys()]).toContain("protocol/dist/generated/v1/decoders.js");
    // The resume policy (`client.openSession`) and the elicitation decoder load on first use.
    expect(has(production, "client/dist/resume-policy.js")).toBe(false);
    expect([...production.lazy.modules.keys()]).toContain("client/dist/resume-policy.js");
    expect(has(production, "protocol/dist/generated/deferred-decoders.js")).toBe(false);
    expect(production.gzipBytes).toBeLessThanOrEqual(PRODUCTION_GZIP_BUDGET);
  });

  it("production: the client's connection keeps the client's decoder table only", { timeout: 120_000 }, async () => {
    const production = await buildApp("production");
    expect(production.renderedExports.get("protocol/dist/generated/client-decoders.js")).toEqual([
      "clientStartDecoders",
    ]);
    const kept = production.renderedExports.get("protocol/dist/generated/decoders.js") ?? [];
    // The tables that reference every decoder (or a whole side's) would keep what only an agent
    // reads, or what the client loads on first use.
    for (const table of ["decoders", "validators", "agentSideDecoders", "clientSideDecoders"]) {
      expect(kept).not.toContain(table);
    }
    // What only an agent decodes: the client's own notification to it, its answers to the agent;
    // and the elicitation request, decoded by a chunk of its own once the client needs it.
    for (const decoder of [
      "decodeCancelSessionNotification",
      "decodeCreateElicitationResponse",
      "decodeCreateElicitationRequest",
    ]) {
      expect(kept).not.toContain(decoder);
    }
    // The connection routes by METHOD_ROUTES; METHODS (with every type name) stays out.
    expect(production.renderedExports.get("protocol/dist/generated/methods.js")).toContain("METHOD_ROUTES");
    expect(production.renderedExports.get("protocol/dist/generated/methods.js")).not.toContain("METHODS");
    expect(production.lazy.renderedExports.get("protocol/dist/generated/deferred-decoders.js")).toContain(
      "clientDeferredDecoders",
    );
  });

  it("development: the validators are there (so the check above can fail)", { timeout: 120_000 }, async () => {
    const development = await buildApp("development");
    console.log(`development bundle: ${kb(development.bytes)} minified, ${kb(development.gzipBytes)} gzip`);
    expect(has(development, "protocol/dist/acp/outgoing-validators.js")).toBe(true);
  });
});
