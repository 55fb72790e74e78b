// A schema of its own in the test cluster, per suite, so suites running at once never see each
// other's sessions, and dropping it removes everything the suite's agents stored.

import pg from "pg";

export interface TestSchema {
  /** The schema's name, to qualify a query made outside `url`'s search path. */
  readonly name: string;
  /** `clusterUrl` with the schema as its search path: what an agent under test is given. */
  readonly url: string;
  /** A connection of the suite's own, for reading what the agents committed. */
  readonly admin: pg.Client;
  /** Drops the schema with everything in it, and closes `admin`. */
  drop(): Promise<void>;
}

/** Creates a fresh schema named `<prefix>_<pid>_<time>` in the cluster at `clusterUrl` (ACP_KIT_PG_URL). */
export async function createTestSchema(clusterUrl: string | undefined, prefix: string): Promise<TestSchema> {
  if (clusterUrl === undefined || clusterUrl === "")
    throw new Error(
      "CI=true but ACP_KIT_PG_URL is not set: npm test starts PostgreSQL where its binaries are installed (.ci/run installs them; see .ci/postgres.sh)",
    );
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: clusterUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${name}`);
  const url = new URL(clusterUrl);
  url.searchParams.set("options", `-c search_path=${name}`);
  return {
    name,
    url: url.toString(),
    admin,
    async drop() {
      try {
        await admin.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
      } finally {
        await admin.end();
      }
    },
  };
}
