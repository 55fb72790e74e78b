/** What the scripted replies say, per scripted model. Deterministic: no randomness, no clock. */
import type { SampleModel } from "./config.js";

export interface Wording {
  thought: string;
  reply: string;
  declined: string;
  slowIntro: string;
  slowDone: string;
  slowStopped: string;
  failIntro: string;
}

const WORDING: Record<SampleModel, Wording> = {
  plain: {
    thought: "The user wants a tour. I will read the greeting, update it, and run the tests to check it.",
    reply: 'Done. I read `src/greeting.ts`, changed the greeting to "Hello, ACP!" and the tests pass.',
    declined: "Understood: I left `src/greeting.ts` unchanged.",
    slowIntro: "Starting a long job. Press Ctrl-C (or send session/cancel) to stop it.",
    slowDone: "The long job finished.",
    slowStopped: "The long job was stopped before it finished.",
    failIntro: "Trying something that is bound to fail...",
  },
  pirate: {
    thought: "Arr, the captain wants a tour. I'll read the greetin', mend it, and fire the tests to be sure.",
    reply: "Aye, 'tis done! I read `src/greeting.ts`, set the greetin' to \"Hello, ACP!\" and the tests be passin'.",
    declined: "Aye aye: `src/greeting.ts` stays as it be.",
    slowIntro: "Hoistin' a long job. Press Ctrl-C (or send session/cancel) to belay it.",
    slowDone: "The long job be done.",
    slowStopped: "The long job was belayed afore it finished.",
    failIntro: "Sailin' straight into a storm...",
  },
};

export function wordingFor(model: SampleModel): Wording {
  return WORDING[model];
}

/** Splits text into word-sized chunks (each keeps its trailing space) for streaming. */
export function chunksOf(text: string): string[] {
  return text.split(/(?<=\s)/).filter((piece) => piece.length > 0);
}
