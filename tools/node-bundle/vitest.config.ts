import { join } from "node:path";
import { defineConfig } from "vitest/config";

// Not the shared config: these tests load the built packages in plain Node processes, as a user's
// program does, so no source aliases.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    reporters: ["default", ["json", { outputFile: join(import.meta.dirname, ".test-results", "vitest.json") }]],
  },
});
