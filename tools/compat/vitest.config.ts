import { defineAcpKitVitestConfig } from "../../vitest.shared.ts";

export default defineAcpKitVitestConfig(import.meta.dirname);
