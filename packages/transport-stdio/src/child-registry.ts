import type { ChildProcess } from "node:child_process";

/**
 * Children spawned with `spawnAgent` that are still running. When the parent process goes
 * away (normal exit, `process.exit()`, or SIGINT/SIGTERM/SIGHUP without another handler),
 * each one is sent SIGKILL so that no agent outlives its client.
 *
 * The signal handlers are only installed while children exist. When ours is the only
 * handler for a signal, it kills the children and re-raises the signal, so the parent still
 * terminates the way it would have without us. When the application handles the signal
 * itself, ours does nothing: the application may shut its agents down gracefully, and the
 * exit hook still kills whatever is left when the process ends.
 */
const live = new Set<ChildProcess>();
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
let installed = false;

function killAll(): void {
  for (const child of live) {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  }
  live.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  killAll();
  uninstall();
  process.kill(process.pid, signal);
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on("exit", killAll);
  for (const signal of SIGNALS) {
    // SIGHUP cannot be listened to on every platform (Windows): ignore failures.
    try {
      process.on(signal, onSignal);
    } catch {
      // Not supported here.
    }
  }
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.off("exit", killAll);
  for (const signal of SIGNALS) process.off(signal, onSignal);
}

export function trackChild(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  live.add(child);
  install();
  child.once("exit", () => untrackChild(child));
}

export function untrackChild(child: ChildProcess): void {
  live.delete(child);
  if (live.size === 0) uninstall();
}

/** How many spawned children are tracked (tests). */
export function trackedChildCount(): number {
  return live.size;
}
