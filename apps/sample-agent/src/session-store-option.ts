/** The session store the CLI options ask for: a file store for `--data-dir`, else memory (undefined). */
import type { SessionStore } from "@acp-kit/agent";
import type { Logger } from "@acp-kit/protocol";
import type { AgentCliOptions } from "./cli-args.js";

export async function openSessionStore(
  options: Pick<AgentCliOptions, "dataDir">,
  logger: Logger,
): Promise<SessionStore | undefined> {
  if (options.dataDir === undefined) return undefined;
  // Loaded only when asked for, so the in-memory default starts as fast as before.
  const { FileSessionStore } = await import("@acp-kit/session-store-file");
  const store = new FileSessionStore({ dir: options.dataDir, logger });
  // Synchronous: runs on every exit path (process.exit included), syncing logs and unlocking the directory.
  process.on("exit", () => store.close());
  return store;
}
