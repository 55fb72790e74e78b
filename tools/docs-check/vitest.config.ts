import { join } from "node:path";
import { defineConfig } from "vitest/config";

// Not the shared config: the examples run as a reader runs them, against the built packages.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 90_000,
    reporters: ["default", ["json", { outputFile: join(import.meta.dirname, ".test-results", "vitest.json") }]],
  },
});
