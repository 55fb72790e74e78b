// A production browser app (client + WebSocket transport, built by Vite) leaves the outgoing
// validators out and stays within its size budget; a development build keeps them.
import { describe, expect, it } from "vitest";
import { type AppBundle, buildApp, kb } from "../src/build-app.js";

/** gzip budget of the production bundle (30.4 KB before the validators could be dropped). */
const PRODUCTION_GZIP_BUDGET = 26 * 1024;

const has = (bundle: AppBundle, suffix: string) => [...bundle.modules.keys()].some((id) => id.endsWith(suffix));

describe("browser app bundle (Vite)", () => {
  it("production: no outgoing validators, within budget", { timeout: 120_000 }, async () => {
    const production = await buildApp("production");
    console.log(`production bundle: ${kb(production.bytes)} minified, ${kb(production.gzipBytes)} gzip`);
    expect(has(production, "protocol/dist/acp/outgoing-validators.js")).toBe(false);
    expect(production.gzipBytes).toBeLessThanOrEqual(PRODUCTION_GZIP_BUDGET);
  });

  it("development: the validators are there (so the check above can fail)", { timeout: 120_000 }, async () => {
    const development = await buildApp("development");
    console.log(`development bundle: ${kb(development.bytes)} minified, ${kb(development.gzipBytes)} gzip`);
    expect(has(development, "protocol/dist/acp/outgoing-validators.js")).toBe(true);
  });
});
