// The Chromium the browser tests run (this package's, packages/transport-http's and packages/cli's), found the way
// scripts/run.mjs finds it: CHROMIUM_PATH when set (then it must work: a broken path fails the
// test, never skips it), else the first Chromium on PATH. None found: the test skips saying how
// to install one, except in CI, where it fails.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

const NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

function findChromium(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  const dirs = (process.env.PATH ?? "").split(delimiter).filter(Boolean);
  for (const name of NAMES) for (const dir of dirs) if (existsSync(join(dir, name))) return join(dir, name);
  return undefined;
}

export const chromiumPath = findChromium();

const MISSING =
  "Chromium not found on PATH: install it (`apt-get install chromium`) or point CHROMIUM_PATH at a Chromium binary";

/** Skips the calling test (through vitest's `skip`) when no Chromium is found, outside CI. */
export function requireChromium(skip: (note: string) => never): string {
  if (chromiumPath !== undefined) return chromiumPath;
  if (process.env.CI) throw new Error(`${MISSING} (CI must run the browser tests)`);
  // The skip note is in the report; the warning shows it in the run's output too.
  console.warn(`browser test skipped: ${MISSING}`);
  return skip(MISSING);
}

/** Launches headless Chromium in a throwaway profile; `onCleanup` gets what closes and removes it. */
export async function launchChromium(
  executablePath: string,
  onCleanup: (cleanup: () => Promise<unknown>) => void,
  options: { viewport?: { width: number; height: number } } = {},
): Promise<BrowserContext> {
  if (!existsSync(executablePath)) throw new Error(`CHROMIUM_PATH=${executablePath} does not exist`);
  const userDataDir = await mkdtemp(join(tmpdir(), "acp-kit-chromium-"));
  onCleanup(() => rm(userDataDir, { recursive: true, force: true }));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    ...options,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  onCleanup(() => context.close());
  return context;
}
