import { join } from "node:path";

export const repoRoot = join(import.meta.dirname, "..", "..", "..");
export const sampleAgentBin = join(repoRoot, "apps", "sample-agent", "dist", "bin.js");
export const sampleClientBin = join(repoRoot, "apps", "sample-client", "dist", "bin.js");
export const sdkAgentFixture = join(repoRoot, "apps", "e2e", "fixtures", "sdk-agent.ts");
export const scriptedAgentBin = join(repoRoot, "packages", "testkit", "dist", "scripted-agent-bin.js");
