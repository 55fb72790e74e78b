#!/usr/bin/env node
// acp-scripted-agent SCRIPT.json: serves a scripted agent (see scenario.ts) over stdio.
import { readFileSync } from "node:fs";
import { stdioTransport } from "@acp-kit/transport-stdio";
import type { AgentScript } from "./scenario.js";
import { scriptedAgent } from "./scripted-agent.js";

const file = process.argv[2];
if (file === undefined) {
  process.stderr.write("usage: acp-scripted-agent SCRIPT.json\n");
  process.exit(2);
}
let script: AgentScript;
try {
  script = JSON.parse(readFileSync(file, "utf8")) as AgentScript;
  if (!Array.isArray(script.prompts)) throw new Error('the script needs a "prompts" array of step lists');
} catch (error) {
  process.stderr.write(`acp-scripted-agent: cannot read ${file}: ${(error as Error).message}\n`);
  process.exit(2);
}
const agent = scriptedAgent(stdioTransport(), script, { onDie: () => process.exit(1) });
await agent.connection.closed;
process.exit(0);
