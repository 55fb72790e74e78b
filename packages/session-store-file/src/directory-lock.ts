/**
 * One writer per data directory: a `LOCK` file created exclusively, holding the owner's pid and
 * host. A lock whose process is gone (same host, pid not alive) is stale and taken over, so a
 * `kill -9` never leaves the directory locked for good.
 */
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import { LocalError } from "@acp-kit/protocol/jsonrpc";

/** Another live process (or another store in this one) holds the directory. */
export class DirectoryLockedError extends LocalError {
  override readonly name = "DirectoryLockedError";
  readonly dir: string;
  constructor(dir: string, holder: string) {
    super(`Session directory ${dir} is locked by ${holder}; only one process may write it`);
    this.dir = dir;
  }
}

interface Holder {
  pid: number;
  host: string;
}

/** Directories locked by stores of this process (a pid check cannot tell them apart). */
const heldHere = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readHolder(path: string): Holder | undefined {
  try {
    const value = JSON.parse(readFileSync(path, "utf8")) as Partial<Holder>;
    return typeof value.pid === "number" && typeof value.host === "string"
      ? { pid: value.pid, host: value.host }
      : undefined;
  } catch {
    return undefined;
  }
}

export class DirectoryLock {
  readonly #path: string;
  readonly #dir: string;
  #held = true;

  private constructor(dir: string, path: string) {
    this.#dir = dir;
    this.#path = path;
  }

  static acquire(dir: string): DirectoryLock {
    const absolute = resolve(dir);
    if (heldHere.has(absolute)) throw new DirectoryLockedError(absolute, "another store in this process");
    const path = join(absolute, "LOCK");
    for (let attempt = 0; attempt < 2; attempt++) {
      let fd: number;
      try {
        fd = openSync(path, "wx");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        const holder = readHolder(path);
        // A lock with our own pid that this process does not hold is from an earlier life of a
        // process with the same pid (e.g. pid 1 in a restarted container).
        const stale =
          holder === undefined
            ? attempt === 0 && lockAgeMs(path) > 2000
            : holder.host === hostname() && (holder.pid === process.pid || !alive(holder.pid));
        if (!stale) {
          const who = holder === undefined ? "a process being started" : `pid ${holder.pid} on ${holder.host}`;
          throw new DirectoryLockedError(absolute, who);
        }
        unlinkSync(path);
        continue;
      }
      try {
        writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }));
      } finally {
        closeSync(fd);
      }
      heldHere.add(absolute);
      return new DirectoryLock(absolute, path);
    }
    throw new DirectoryLockedError(absolute, "a process that keeps recreating the lock");
  }

  release(): void {
    if (!this.#held) return;
    this.#held = false;
    heldHere.delete(this.#dir);
    // Only our own lock is removed (a stale-lock takeover by someone else must not be undone).
    if (readHolder(this.#path)?.pid === process.pid) {
      try {
        unlinkSync(this.#path);
      } catch {
        // already gone
      }
    }
  }
}

/** A lock file without a readable holder is being written, unless it is old. */
function lockAgeMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
