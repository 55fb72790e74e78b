import { defineAcpKitVitestConfig } from "../../vitest.shared.ts";

// Each check spawns fresh agent processes: give the end-to-end tests room on a busy machine.
export default defineAcpKitVitestConfig(import.meta.dirname, { testTimeout: 120_000 });
