/**
 * The sample agent's session settings: a mode selector (does an edit need approval?), a model
 * selector (which wording the scripted replies use) and its slash commands.
 */
import type { AvailableCommand, SessionConfigOption } from "@acp-kit/protocol/types";

export const MODE_OPTION = "mode";
export const MODEL_OPTION = "model";

/** `ask`: every edit asks for permission first; `auto`: edits go ahead without asking. */
export type SampleMode = "ask" | "auto";
/** Scripted "models": they differ only in how the replies are worded. */
export type SampleModel = "plain" | "pirate";

export function initialConfigOptions(mode: SampleMode = "ask", model: SampleModel = "plain"): SessionConfigOption[] {
  return [
    {
      configId: MODE_OPTION,
      name: "Mode",
      description: "Whether file edits need your approval",
      category: "mode",
      type: "select",
      currentValue: mode,
      options: [
        { value: "ask", name: "Ask", description: "Ask before every edit" },
        { value: "auto", name: "Auto", description: "Edit without asking" },
      ],
    },
    {
      configId: MODEL_OPTION,
      name: "Model",
      description: "Scripted models: same actions, different wording",
      category: "model",
      type: "select",
      currentValue: model,
      options: [
        { value: "plain", name: "Plain", description: "Matter-of-fact replies" },
        { value: "pirate", name: "Pirate", description: "Replies like a pirate" },
      ],
    },
  ];
}

/** Returns `options` with the select option `configId` set to `value` (other options untouched). */
export function withSelectValue(
  options: readonly SessionConfigOption[],
  configId: string,
  value: string,
): SessionConfigOption[] {
  return options.map((option) =>
    option.configId === configId ? ({ ...option, currentValue: value } as SessionConfigOption) : option,
  );
}

export function readMode(value: unknown): SampleMode {
  return value === "auto" ? "auto" : "ask";
}

export function readModel(value: unknown): SampleModel {
  return value === "pirate" ? "pirate" : "plain";
}

export const SLASH_COMMANDS: AvailableCommand[] = [
  { type: "command", name: "help", description: "List what this agent can do" },
  { type: "command", name: "demo", description: "Show every kind of update (any other prompt does too)" },
  {
    type: "command",
    name: "slow",
    description: "A long turn to practise cancelling",
    input: { type: "text", hint: "seconds (default 30)" },
  },
  { type: "command", name: "fail", description: "A turn that ends with the error stop reason" },
];
