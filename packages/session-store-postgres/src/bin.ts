#!/usr/bin/env node
/** `acp-session-store-postgres migrate [URL]`: applies the store's schema ahead of a deploy. */
import pg from "pg";
import { migrate } from "./migrations.js";

const [command, url = process.env.DATABASE_URL] = process.argv.slice(2);
if (command !== "migrate") {
  process.stderr.write("Usage: acp-session-store-postgres migrate [postgres://user@host:port/db]\n");
  process.stderr.write("       (the URL defaults to $DATABASE_URL, then to the PG* environment variables)\n");
  process.exit(2);
}
const pool = new pg.Pool(url === undefined ? {} : { connectionString: url });
try {
  const applied = await migrate(pool);
  process.stdout.write(applied.length > 0 ? `applied migrations ${applied.join(", ")}\n` : "schema up to date\n");
} catch (error) {
  process.stderr.write(`migrate failed: ${(error as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await pool.end();
}
