// @acp-kit/sample-agent: the scripted agent as a library (the CLI is bin.ts).

export { type AgentCliOptions, parseAgentArgs } from "./cli-args.js";
export { FAIL_ERROR_CODE, parseSlashCommand, SLOW_DEFAULT_SECONDS } from "./commands.js";
export {
  initialConfigOptions,
  MODE_OPTION,
  MODEL_OPTION,
  type SampleMode,
  type SampleModel,
  SLASH_COMMANDS,
} from "./config.js";
export { createSampleAgent, runScript, SAMPLE_AGENT_INFO, type SampleAgentOptions } from "./sample-agent.js";
export { EDIT_PERMISSION_OPTIONS, greetingPatch, type ScriptOptions, TEST_OUTPUT, titleFrom } from "./showcase.js";
export { type Wording, wordingFor } from "./wording.js";
