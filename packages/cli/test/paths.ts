import { join } from "node:path";

export const repoRoot = join(import.meta.dirname, "..", "..", "..");
export const sampleAgentBin = join(repoRoot, "apps", "sample-agent", "dist", "bin.js");
export const sampleClientBin = join(repoRoot, "apps", "sample-client", "dist", "bin.js");
export const sdkAgentFixture = join(repoRoot, "apps", "e2e", "fixtures", "sdk-agent.ts");
export const scriptedAgentBin = join(repoRoot, "packages", "testkit", "dist", "scripted-agent-bin.js");

/** `--import` value for tsx that works from any working directory. */
export const tsxLoader = new URL("../node_modules/tsx/dist/loader.mjs", import.meta.url).href;
export const rudeClientFixture = join(import.meta.dirname, "fixtures", "rude-client.ts");
export const cliSource = join(import.meta.dirname, "..", "src", "bin.ts");
/** A v1 agent and a v1 client on the official SDK's v1 API, each with `--defect NAME` faults. */
export const sdkV1AgentFixture = join(import.meta.dirname, "fixtures", "sdk-v1-agent.ts");
export const sdkV1ClientFixture = join(import.meta.dirname, "fixtures", "sdk-v1-client.ts");
