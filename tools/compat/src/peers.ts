// The real peers under test, pinned: how each is installed, started and pointed at the mock.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Where a run puts one agent's state: a throwaway HOME and the session's working directory. */
export interface AgentPlace {
  home: string;
  cwd: string;
  /** The mock's origin (`http://127.0.0.1:PORT`), or undefined for an agent without a mock. */
  mockOrigin: string | undefined;
  /** Shared, kept between runs: copilot unpacks itself here once (~240 MB). */
  cacheRoot: string;
}

export interface AgentPeer {
  /** Short id used in the table and the expectations. */
  id: string;
  pkg: string;
  version: string;
  bin: string;
  args: string[];
  /** Whether the suite ships a mock of this agent's model API (else: only the no-credential cells). */
  mocked: boolean;
  /** Writes the agent's config into `place.home` and returns the environment it runs with. */
  prepare(place: AgentPlace): Record<string, string>;
}

export interface ClientPeer {
  id: string;
  pkg: string;
  version: string;
  bin: string;
}

/** The environment every peer runs with: nothing of the machine's own HOME, no update checks. */
function baseEnv(place: AgentPlace): Record<string, string> {
  return {
    HOME: place.home,
    XDG_CONFIG_HOME: join(place.home, ".config"),
    XDG_CACHE_HOME: join(place.home, ".cache"),
    XDG_DATA_HOME: join(place.home, ".local/share"),
    NO_UPDATE_NOTIFIER: "1",
    NO_COLOR: "1",
    CI: "1",
  };
}

function writeJson(path: string, value: unknown): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

export const AGENTS: AgentPeer[] = [
  {
    id: "gemini-cli",
    pkg: "@google/gemini-cli",
    version: "0.61.0",
    bin: "gemini",
    args: ["--acp"],
    mocked: true,
    prepare(place) {
      writeJson(join(place.home, ".gemini/settings.json"), {
        security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
      });
      return {
        ...baseEnv(place),
        GEMINI_API_KEY: "compat-mock-key",
        GOOGLE_GEMINI_BASE_URL: place.mockOrigin ?? "",
        // gemini-cli re-executes itself with a bigger heap unless told not to; one process is enough.
        GEMINI_CLI_NO_RELAUNCH: "true",
      };
    },
  },
  {
    id: "qwen-code",
    pkg: "@qwen-code/qwen-code",
    version: "0.15.10",
    bin: "qwen",
    args: ["--acp", "--auth-type", "openai", "--model", "mock-model"],
    mocked: true,
    prepare(place) {
      return {
        ...baseEnv(place),
        OPENAI_API_KEY: "compat-mock-key",
        OPENAI_BASE_URL: `${place.mockOrigin}/v1`,
        OPENAI_MODEL: "mock-model",
      };
    },
  },
  {
    id: "copilot",
    pkg: "@github/copilot",
    version: "1.0.102",
    bin: "copilot",
    args: ["--acp"],
    mocked: true,
    prepare(place) {
      return {
        ...baseEnv(place),
        COPILOT_HOME: join(place.home, ".copilot"),
        COPILOT_PKG_CACHE_HOME: join(place.cacheRoot, "copilot-pkg"),
        COPILOT_AUTO_UPDATE: "false",
        COPILOT_PROVIDER_BASE_URL: `${place.mockOrigin}/v1`,
        COPILOT_PROVIDER_API_KEY: "compat-mock-key",
        COPILOT_MODEL: "mock-model",
      };
    },
  },
  {
    // Its model API is Augment's own service, not a public API a mock could stand in for.
    id: "auggie",
    pkg: "@augmentcode/auggie",
    version: "0.36.0",
    bin: "auggie",
    args: ["--acp"],
    mocked: false,
    prepare(place) {
      return { ...baseEnv(place), AUGMENT_DISABLE_AUTO_UPDATE: "1" };
    },
  },
];

export const CLIENTS: ClientPeer[] = [{ id: "acpx", pkg: "acpx", version: "0.19.1", bin: "acpx" }];
