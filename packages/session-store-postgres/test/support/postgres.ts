/**
 * Where the tests find PostgreSQL: `ACP_KIT_PG_URL` (`npm test` starts a throwaway cluster and
 * sets it where PostgreSQL is installed; by hand: `source .ci/postgres.sh && start_test_postgres`). Without it the tests are
 * skipped with a loud message, except in CI (`CI=true`), where a missing database fails the run.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

export const PG_URL = process.env.ACP_KIT_PG_URL;
const IN_CI = process.env.CI === "true" || process.env.CI === "1";

/** Skipped only outside CI: in CI the tests run, and fail in their setup (see `assertPostgres`). */
export const skipWithoutPostgres = (PG_URL === undefined || PG_URL === "") && !IN_CI;

if (skipWithoutPostgres) {
  process.stderr.write(
    "\n!!! ACP_KIT_PG_URL is not set: the PostgreSQL session-store tests are SKIPPED.\n" +
      "!!! Install PostgreSQL (apt-get install postgresql) and npm test starts a throwaway cluster for them;\n" +
      "!!! for this package alone: source .ci/postgres.sh && start_test_postgres && pnpm test\n\n",
  );
}

/** Throws in CI when there is no database (call it first in `beforeAll`). */
export function assertPostgres(): void {
  if (PG_URL === undefined || PG_URL === "")
    throw new Error(
      "CI=true but ACP_KIT_PG_URL is not set: npm test starts PostgreSQL where its binaries are installed (.ci/run installs them; see .ci/postgres.sh)",
    );
}

/** A fresh schema per test file, so runs never see each other's tables. */
export async function freshSchema(): Promise<{ config: pg.PoolConfig; drop(): Promise<void> }> {
  assertPostgres();
  const schema = `acp_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  return {
    config: { connectionString: PG_URL, options: `-c search_path=${schema}` },
    async drop() {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    },
  };
}
