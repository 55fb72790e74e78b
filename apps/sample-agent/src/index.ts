// @acp-kit/sample-agent: the scripted agent as a library (the CLI is bin.ts).
export { createSampleAgent, runScript, SAMPLE_AGENT_INFO, type SampleAgentOptions } from "./sample-agent.js";
export { initialConfigOptions, MODE_OPTION, MODEL_OPTION, SLASH_COMMANDS, type SampleMode, type SampleModel } from "./config.js";
export { EDIT_PERMISSION_OPTIONS, TEST_OUTPUT, greetingPatch, titleFrom, type ScriptOptions } from "./showcase.js";
export { FAIL_ERROR_CODE, SLOW_DEFAULT_SECONDS, parseSlashCommand } from "./commands.js";
export { wordingFor, type Wording } from "./wording.js";
export { parseAgentArgs, type AgentCliOptions } from "./cli-args.js";
