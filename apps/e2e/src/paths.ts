/** Where the built apps and the fixtures are. The e2e suite runs the BUILT apps (`dist/`). */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const E2E_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const REPO_ROOT = join(E2E_ROOT, "..", "..");
export const SAMPLE_AGENT_BIN = join(REPO_ROOT, "apps", "sample-agent", "dist", "bin.js");
export const SAMPLE_CLIENT_BIN = join(REPO_ROOT, "apps", "sample-client", "dist", "bin.js");
/** The official-SDK agent fixture (TypeScript, run with tsx). */
export const SDK_AGENT_FIXTURE = join(E2E_ROOT, "fixtures", "sdk-agent.ts");
/** The official-SDK v1 agent fixture (the SDK's package root API). */
export const SDK_V1_AGENT_FIXTURE = join(E2E_ROOT, "fixtures", "sdk-v1-agent.ts");
export const TSX_BIN = join(REPO_ROOT, "node_modules", ".bin", "tsx");

/** Throws a clear error when the apps were not built (turbo builds them before `test`). */
export function assertBuilt(): void {
  for (const bin of [SAMPLE_AGENT_BIN, SAMPLE_CLIENT_BIN]) {
    if (!existsSync(bin)) {
      throw new Error(
        `${bin} is missing: build the apps first (cd /work/main && pnpm exec turbo run build --filter=@acp-kit/e2e...)`,
      );
    }
  }
}
