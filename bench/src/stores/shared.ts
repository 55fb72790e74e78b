// What the store cases (../cases/store-*.ts) share: the stores under test, fresh ones on demand,
// and the workload.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InMemorySessionStore, type SessionRecord, type SessionStore } from "@acp-kit/agent";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { FileSessionStore } from "@acp-kit/session-store-file";
import { PostgresSessionStore } from "@acp-kit/session-store-postgres";
import pg from "pg";

/** `file` is the file store with its default durability (a sync at each turn end). */
export type StoreKind = "memory" | "file" | "postgres";

/**
 * PostgreSQL comes from ACP_KIT_PG_URL (`source .ci/postgres.sh && start_test_postgres`); the
 * runner skips the postgres sides without it (../cases.ts).
 */
const PG_URL = process.env.ACP_KIT_PG_URL;

export interface Place {
  kind: StoreKind;
  /** Where the data is, for another process: the directory, or the connection string (memory: ""). */
  location: string;
  /** A new store instance on this place's data (a restarted process, for file and postgres). */
  open(): SessionStore & { close?(): unknown; flush?(): Promise<void> };
  remove(): Promise<void>;
}

/** A fresh, empty place for a store: a temp directory, or a new PostgreSQL schema. */
export async function freshPlace(kind: StoreKind): Promise<Place> {
  if (kind === "memory") {
    const store = new InMemorySessionStore();
    return { kind, location: "", open: () => store, remove: async () => {} };
  }
  if (kind === "file") {
    const dir = mkdtempSync(join(tmpdir(), "acp-bench-store-"));
    return {
      kind,
      location: dir,
      open: () => new FileSessionStore({ dir }),
      remove: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (PG_URL === undefined || PG_URL === "") throw new Error("the postgres side needs ACP_KIT_PG_URL");
  const schema = `acp_bench_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = new URL(PG_URL);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return {
    kind,
    location: url.toString(),
    open: () => new PostgresSessionStore({ connectionString: url.toString() }),
    async remove() {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}

export async function closeStore(store: { close?(): unknown }): Promise<void> {
  await store.close?.();
}

export function record(sessionId: string): SessionRecord {
  return { sessionId, cwd: "/bench", additionalDirectories: [], configOptions: [], availableCommands: [], data: {} };
}

/** Turns of a streamed answer: CHUNKS_PER_TURN chunks of ~60 bytes under one message id each. */
export const CHUNKS_PER_TURN = 200;
const TEXT = "Hello from the benchmark, a chunk of a streamed answer....";
export function chunk(i: number): SessionUpdate {
  return {
    sessionUpdate: "agent_message_chunk",
    messageId: `msg_${Math.floor(i / CHUNKS_PER_TURN)}`,
    content: { type: "text", text: TEXT },
  } as SessionUpdate;
}

/** Streams `count` chunks into the session as the engine would: a turn end (its stop) every turn. */
export async function stream(store: SessionStore, sessionId: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await store.appendUpdate(sessionId, chunk(i));
    if (i % CHUNKS_PER_TURN === CHUNKS_PER_TURN - 1) {
      await store.update(sessionId, { lastStop: { stopReason: "end_turn" } });
      // A turn boundary is a moment the event loop runs: batched writes go out here.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
}
