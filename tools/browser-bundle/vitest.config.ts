import { join } from "node:path";
import { defineConfig } from "vitest/config";

// Not the shared config: these tests bundle the built packages, as a user's app does.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    reporters: ["default", ["json", { outputFile: join(import.meta.dirname, ".test-results", "vitest.json") }]],
  },
});
