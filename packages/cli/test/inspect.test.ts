// `acp-kit inspect` in real headless Chromium: the page on 127.0.0.1 (token required) prompts
// our sample agent through @acp-kit/client over the WebSocket transport, answers its
// permission, renders the session beside the filtered wire log, and cancels a long turn.
// Skipped locally when Chromium is missing (a broken CHROMIUM_PATH fails); fails in CI, where it must be installed.
import { mkdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { launchChromium, requireChromium } from "../../transport-ws/test/browser/chromium.js";
import { startInspector } from "../src/inspect/server.js";
import { sampleAgentBin } from "./paths.js";

const artifacts = join(import.meta.dirname, "..", ".test-results");
export const screenshotPath = join(artifacts, "inspector.png");

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

describe("acp-kit inspect", () => {
  it("prompts the agent, answers its permission, renders the session and the wire log, cancels", async ({ skip }) => {
    const executablePath = requireChromium(skip);
    const cwd = await mkdtemp(join(tmpdir(), "acp-kit-inspect-"));
    cleanups.push(() => rm(cwd, { recursive: true, force: true }));
    const inspector = await startInspector({
      target: { command: { command: process.execPath, args: [sampleAgentBin, "--pace", "0"] } },
      cwd,
    });
    cleanups.push(() => inspector.close());
    const url = new URL(inspector.url);
    expect(url.hostname).toBe("127.0.0.1");
    expect(url.searchParams.get("token")).toMatch(/^[\w-]{24}$/);
    // Without the token: no page, and no agent.
    expect((await fetch(`${url.origin}/`)).status).toBe(403);
    expect((await fetch(`${url.origin}/?token=wrong`)).status).toBe(403);

    const context = await launchChromium(executablePath, (cleanup) => cleanups.push(cleanup), {
      viewport: { width: 1400, height: 900 },
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(inspector.url);
    await page.waitForFunction(
      () => (globalThis as { __inspector?: { ready?: boolean } }).__inspector?.ready === true,
      undefined,
      { timeout: 20_000 },
    );
    expect(await page.textContent("#agent")).toContain("ACP Sample Agent");

    // A showcase turn: it asks for a permission, which we answer in the page.
    await page.fill("#prompt", "Show me everything");
    await page.click("#send");
    await page.waitForSelector("#permission:not([hidden]) button", { timeout: 20_000 });
    expect(await page.textContent("#permission")).toContain("Allow");
    await page.click("#permission button.perm-allow_once");
    await page.waitForFunction(
      () => (globalThis as { __inspector?: { turns?: number } }).__inspector?.turns === 1,
      undefined,
      { timeout: 30_000 },
    );

    const session = (await page.textContent("#session")) ?? "";
    expect(session).toContain("Show me everything"); // the user message
    expect(await page.locator(".msg.thought").count()).toBeGreaterThan(0);
    expect(await page.locator(".msg.agent").count()).toBeGreaterThan(0);
    expect(await page.locator(".tool[data-status=completed]").count()).toBeGreaterThan(1);
    expect(await page.locator(".tool .locations li").count()).toBeGreaterThan(0);
    expect(await page.locator(".terminal pre").count()).toBeGreaterThan(0);
    expect(await page.locator(".plan li").count()).toBeGreaterThan(0);
    expect(await page.textContent("#state")).toContain("idle (end_turn)");

    // The wire log, filtered to the permission exchange.
    const all = await page.locator(".wire").count();
    expect(all).toBeGreaterThan(20);
    await page.fill("#wire-filter", "request_permission");
    const filtered = await page.locator(".wire").count();
    expect(filtered).toBeGreaterThan(0);
    expect(filtered).toBeLessThan(all);
    await page.selectOption("#wire-direction", "in");
    expect(await page.locator(".wire.out").count()).toBe(0);
    await page.selectOption("#wire-direction", "all");
    await page.fill("#wire-filter", "");
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: screenshotPath, fullPage: false });

    // A long turn, cancelled from the page.
    await page.fill("#prompt", "/slow 30");
    await page.click("#send");
    await page.waitForFunction(
      () => document.querySelector("#state")?.textContent?.startsWith("running") === true,
      undefined,
      { timeout: 20_000 },
    );
    await page.click("#cancel");
    await page.waitForFunction(
      () => (globalThis as { __inspector?: { turns?: number } }).__inspector?.turns === 2,
      undefined,
      { timeout: 20_000 },
    );
    expect(
      await page.evaluate(
        () => (globalThis as { __inspector?: { lastStopReason?: string } }).__inspector?.lastStopReason,
      ),
    ).toBe("cancelled");
    expect(errors).toEqual([]);
  }, 120_000);
});
