/**
 * The session store the CLI options ask for: a file store for `--data-dir`, PostgreSQL for
 * `--postgres`, else memory (undefined). Loaded only when asked for, so the default starts fast.
 */
import type { SessionStore } from "@acp-kit/agent";
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import type { AgentCliOptions } from "./cli-args.js";

export async function openSessionStore(
  options: Pick<AgentCliOptions, "dataDir" | "postgres">,
  logger: Logger,
): Promise<SessionStore | undefined> {
  if (options.dataDir !== undefined) {
    const { FileSessionStore } = await import("@acp-kit/session-store-file");
    const store = new FileSessionStore({ dir: options.dataDir, logger });
    // Synchronous, so it runs on every exit path (process.exit included): syncs logs, unlocks.
    process.on("exit", () => store.close());
    return store;
  }
  if (options.postgres !== undefined) {
    const { PostgresSessionStore } = await import("@acp-kit/session-store-postgres");
    const store = new PostgresSessionStore({ connectionString: options.postgres, logger });
    // Fail at start (bad URL, database down) rather than at the first session.
    await store.ready();
    return store;
  }
  return undefined;
}
