/**
 * The client application: connects to an agent (spawned over stdio or over WebSocket), opens a
 * session, and runs one prompt (`--prompt`) or a REPL, rendering the live session store.
 */

import { createInterface } from "node:readline";
import type { Writable } from "node:stream";
import type { ReadStream } from "node:tty";
import {
  type AcpClient,
  type ClientSession,
  connectToAgent,
  DEFAULT_INITIALIZE_TIMEOUT_MS,
  type ForegroundWork,
  type Turn,
} from "@acp-kit/client";
import { ConnectionError, type Logger, type Transport } from "@acp-kit/protocol/jsonrpc";
import type { RequestPermissionRequest, RequestPermissionResponse } from "@acp-kit/protocol/types";
import { type SpawnedAgent, spawnAgent } from "@acp-kit/transport-stdio";
import type { ClientCliOptions } from "./cli-args.js";
import { configValueFor } from "./config-value.js";
import { type ClientStep, errorText, renderFailure } from "./failure.js";
import { Keyboard } from "./keyboard.js";
import { LiveView } from "./live-view.js";
import { automaticChoice, selected } from "./permission-policy.js";
import { SessionRenderer } from "./session-renderer.js";
import { COLOR, PLAIN } from "./style.js";
import { tapTransport } from "./wire-tap.js";

export interface ClientIo {
  stdin: NodeJS.ReadableStream & Partial<Pick<ReadStream, "isTTY" | "setRawMode">>;
  stdout: Writable & { isTTY?: boolean; columns?: number; rows?: number };
  stderr: Writable & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
}

export const CLIENT_INFO = { name: "acp-sample-client", title: "ACP Sample Client", version: "0.1.0" };

/** How many of the agent's last stderr lines a failure shows. */
const STDERR_TAIL_LINES = 12;

/** At the prompt, a second Ctrl-C within this window exits. */
const EXIT_WINDOW_MS = 2000;

/** Exit status for a turn's stop reason (see the usage text). */
export function exitCodeFor(stopReason: string | undefined): number {
  if (stopReason === "end_turn") return 0;
  if (stopReason === "cancelled") return 130;
  if (stopReason === "error") return 1;
  return 3;
}

export async function runClient(options: ClientCliOptions, io: ClientIo): Promise<number> {
  const ui = options.json ? io.stderr : io.stdout;
  const tty = ui.isTTY === true;
  const color = options.color ?? (tty && io.env.NO_COLOR === undefined);
  const style = color ? COLOR : PLAIN;
  const view = new LiveView(ui, {
    live: tty,
    columns: () => io.stdout.columns ?? 80,
    rows: () => io.stdout.rows ?? 24,
  });
  // Diagnostics go to stderr; when that is the terminal the live view draws on, go around it.
  const diag = (text: string) => view.printElsewhere(io.stderr, `${text}\n`, tty && io.stderr.isTTY === true);
  const logger: Logger = {
    ...(options.verbose
      ? {
          debug: (m: string) => diag(style.dim(`[client] ${m}`)),
          info: (m: string) => diag(style.dim(`[client] ${m}`)),
        }
      : {}),
    warn: (m: string, data?: unknown) =>
      diag(style.yellow(`[client] ${m}${data instanceof Error ? `: ${data.message}` : ""}`)),
    error: (m: string, data?: unknown) =>
      diag(style.red(`[client] ${m}${data instanceof Error ? `: ${data.message}` : ""}`)),
  };

  // ---- transport ----
  let spawned: SpawnedAgent | undefined;
  let transport: Transport;
  try {
    if (options.agentCommand) {
      // The agent's stderr (stack traces while it retries, ...) would bury what matters: it is
      // shown as it comes with --verbose only, and its last lines on a failure.
      spawned = spawnAgent(options.agentCommand.command, options.agentCommand.args, {
        stderr: options.verbose ? (line) => diag(style.dim(`agent │ ${line}`)) : () => {},
        stderrTailLines: STDERR_TAIL_LINES,
        logger,
      });
      transport = spawned.transport;
    } else if (options.httpUrl) {
      const headers: Record<string, string> =
        options.token !== undefined ? { Authorization: `Bearer ${options.token}` } : {};
      const { connectHttp } = await import("@acp-kit/transport-http");
      transport = await connectHttp(options.httpUrl, { headers, logger });
    } else {
      const headers: Record<string, string> =
        options.token !== undefined ? { Authorization: `Bearer ${options.token}` } : {};
      // Loaded only for --ws, so spawning clients start faster.
      const { connectWebSocket } = await import("@acp-kit/transport-ws/node");
      transport = await connectWebSocket(options.wsUrl as string, { headers, logger });
    }
  } catch (error) {
    const status = (error as { details?: { httpStatus?: number } }).details?.httpStatus;
    diag(
      style.red(
        `Could not reach the agent: ${(error as Error).message}${status !== undefined && !(error as Error).message.includes(String(status)) ? ` (HTTP ${status})` : ""}`,
      ),
    );
    return 1;
  }
  if (options.json) transport = tapTransport(transport, (line) => io.stdout.write(`${line}\n`));

  // ---- input ----
  const keyboardTty = io.stdin.isTTY === true && typeof io.stdin.setRawMode === "function" && !options.json;
  let renderer: SessionRenderer | undefined;
  let onLine: (text: string) => void = () => {};
  // Until a turn runs, an interrupt (e.g. while connecting) just leaves.
  const leave = () => void shutdown().finally(() => process.exit(130));
  let onInterrupt: () => void = leave;
  let onEnd: () => void = () => {};
  let keyboard: Keyboard | undefined;
  // An interrupt cancels the turn: its later permission requests are answered `cancelled` too.
  let interrupted = false;
  const signalInterrupt = () => {
    interrupted = true;
    onInterrupt();
  };
  const setTurnInterrupt = (handler: () => void) => {
    interrupted = false;
    onInterrupt = handler;
  };
  // SIGTERM: leave cleanly (the agent is shut down) with the conventional status.
  const signalTerminate = () => void shutdown().finally(() => process.exit(143));
  process.on("SIGINT", signalInterrupt);
  process.on("SIGTERM", signalTerminate);

  const askPermission = async (
    request: RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<RequestPermissionResponse> => {
    if (interrupted) return selected(undefined);
    if (options.permissions !== "ask" || !keyboard) {
      const policy = options.permissions === "ask" ? "reject" : options.permissions;
      if (options.permissions === "ask")
        diag(style.yellow("No terminal to ask on: rejecting the permission request (use --yes or --no)."));
      const choice = automaticChoice(request.options, policy);
      renderer?.notePermission(request, choice, true);
      return selected(choice);
    }
    renderer?.showPermission(request);
    const index = await keyboard.choose(request.options.length, signal);
    const choice = index === undefined ? undefined : request.options[index];
    renderer?.showPermission(undefined);
    renderer?.notePermission(request, choice, false);
    return selected(choice);
  };

  let client: AcpClient | undefined;
  let shutDown: Promise<void> | undefined;
  const shutdown = () => (shutDown ??= closeAll());
  const closeAll = async () => {
    process.off("SIGINT", signalInterrupt);
    process.off("SIGTERM", signalTerminate);
    renderer?.stop();
    keyboard?.close();
    view.clearLive();
    await client?.close().catch(() => {});
    if (spawned) await spawned.shutdown();
    else await transport.close().catch(() => {});
  };

  // Raw mode from the start, so a Ctrl-C is a key for us and never a signal to the agent.
  if (keyboardTty) {
    keyboard = new Keyboard(io.stdin as ReadStream, {
      line: (text) => onLine(text),
      interrupt: () => signalInterrupt(),
      endOfInput: () => onEnd(),
      changed: () => renderer?.setInput(keyboard?.buffer ?? ""),
      unexpectedKey: (count) => renderer?.note(`Press 1–${count} to answer (Ctrl-C cancels the turn).`),
    });
  }

  // An agent that never answers initialize must not leave a blank screen: say what we wait for,
  // and give up after the timeout (ACP_KIT_INITIALIZE_TIMEOUT_MS overrides the library default).
  const initializeTimeoutMs = Number(process.env.ACP_KIT_INITIALIZE_TIMEOUT_MS) || DEFAULT_INITIALIZE_TIMEOUT_MS;
  const waitingNote = setTimeout(
    () =>
      diag(
        style.dim(
          `Waiting for the agent to answer initialize (giving up after ${Math.round(initializeTimeoutMs / 1000)} s)…`,
        ),
      ),
    3000,
  );
  // Shown in place (terminals only) until the agent answers `initialize`.
  view.setLive([style.dim(`connecting to ${options.wsUrl ?? options.httpUrl ?? options.agentCommand?.command}…`)]);
  let step: ClientStep = "initialize";
  try {
    try {
      client = await connectToAgent(transport, {
        info: CLIENT_INFO,
        logger,
        initializeTimeoutMs,
        handlers: { requestPermission: (request, ctx) => askPermission(request, ctx.signal) },
      });
    } finally {
      clearTimeout(waitingNote);
      view.clearLive();
    }
    const agentName = client.agentInfo.title ?? client.agentInfo.name;
    const cwd = options.cwd ?? io.cwd;
    step = options.resume === undefined || options.resumePolicy === "off" ? "session/new" : "session/resume";
    const opened = await client.openSession({ sessionId: options.resume, cwd, resume: options.resumePolicy ?? "auto" });
    const session: ClientSession = opened.session;
    for (const { configId, value } of options.config) {
      step = `set config ${configId}`;
      await setConfig(session, configId, value);
    }
    renderer = new SessionRenderer(session.store, view, { style, spinner: tty });
    renderer.printHeader(
      `${agentName} ${client.agentInfo.version} · ACP v${client.protocolVersion} · session ${session.sessionId}`,
    );
    if (opened.fallback !== undefined) renderer.note(opened.fallback.message);
    if (opened.resumed) renderer.printReplayed();

    if (options.prompt !== undefined) {
      step = "prompt";
      const result = await runTurn(session, options.prompt, renderer, setTurnInterrupt);
      await shutdown();
      return result.forced ? 130 : exitCodeFor(result.stopReason);
    }
    step = "prompt";
    return await repl(session, renderer, keyboard, io, {
      setLine: (f) => (onLine = f),
      setInterrupt: setTurnInterrupt,
      setEnd: (f) => (onEnd = f),
      shutdown,
      diag,
      style,
    });
  } catch (error) {
    // What was streamed stays on screen; the agent's last stderr lines, then the failure, below it.
    renderer?.settle();
    const tail = options.verbose ? [] : (spawned?.stderrTail() ?? []);
    if (tail.length > 0)
      diag(
        style.dim(
          [
            `agent stderr, last ${tail.length} lines (--verbose shows it as it comes):`,
            ...tail.map((l) => `agent │ ${l}`),
          ].join("\n"),
        ),
      );
    const agentCommand = options.agentCommand && [options.agentCommand.command, ...options.agentCommand.args];
    const failure = renderFailure(
      error,
      { step, authMethods: client?.authMethods ?? [], ...(agentCommand ? { agentCommand } : {}) },
      style,
    );
    diag(failure.join("\n"));
    await shutdown();
    return 1;
  }
}

/** Sets a config option from its text form (checked against what the agent offers). */
async function setConfig(session: ClientSession, configId: string, value: string): Promise<void> {
  await session.setConfigOption(configId, configValueFor(session.store.getSnapshot().configOptions, configId, value));
}

/**
 * Runs one prompt to its idle. The first interrupt cancels it; a second one (while the
 * cancellation is under way) stops waiting: `forced` is then true.
 */
async function runTurn(
  session: ClientSession,
  text: string,
  renderer: SessionRenderer,
  setInterrupt: (handler: () => void) => void,
): Promise<{ stopReason: string | undefined; forced: boolean }> {
  const turn: Turn = session.prompt(text);
  renderer.startTurn();
  let cancelling = false;
  let force!: () => void;
  const forced = new Promise<"forced">((resolve) => (force = () => resolve("forced")));
  setInterrupt(() => {
    if (cancelling) return force();
    cancelling = true;
    renderer.note("Cancelling… (press Ctrl-C again to stop waiting and quit)");
    void turn.cancel().catch(() => {});
  });
  try {
    const result = await Promise.race([turn.done, forced]);
    if (result === "forced") return { stopReason: "cancelled", forced: true };
    renderer.endTurn();
    return { stopReason: result.stopReason, forced: false };
  } finally {
    setInterrupt(() => {});
  }
}

interface ReplHooks {
  setLine(handler: (text: string) => void): void;
  setInterrupt(handler: () => void): void;
  setEnd(handler: () => void): void;
  shutdown(): Promise<void>;
  diag(text: string): void;
  style: typeof COLOR;
}

/** A prompt's text as a short label for its end line. */
function labelOf(text: string): string {
  const line = text.replace(/\s+/g, " ");
  return JSON.stringify(line.length > 32 ? `${line.slice(0, 31)}…` : line);
}

/**
 * Reads prompts (keyboard on a terminal, lines otherwise) and sends each at once: a prompt typed
 * while the agent works is queued (or steered into the work) by the agent. Each turn prints its
 * own end line when its `done` settles (labelled when turns overlapped), and work the agent starts
 * on its own is announced and ended the same way.
 */
async function repl(
  session: ClientSession,
  renderer: SessionRenderer,
  keyboard: Keyboard | undefined,
  io: ClientIo,
  hooks: ReplHooks,
): Promise<number> {
  const queue: string[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  const push = (text: string) => {
    queue.push(text);
    wake?.();
  };
  const end = () => {
    ended = true;
    wake?.();
  };
  let lines: ReturnType<typeof createInterface> | undefined;
  if (keyboard) {
    hooks.setLine(push);
    hooks.setEnd(end);
  } else {
    lines = createInterface({ input: io.stdin, terminal: false });
    lines.on("line", push);
    lines.on("close", end);
    hooks.setEnd(end);
  }
  renderer.printHelp(session.store.getSnapshot());

  const running = new Map<Turn, { overlapped: boolean; printed: boolean; text: string }>();
  let code = 0;
  let cancelling = false;
  let forcedExit = false;
  let resolveForced!: () => void;
  const forced = new Promise<"forced">((resolve) => (resolveForced = () => resolve("forced")));
  const force = () => {
    forcedExit = true;
    resolveForced();
    end();
  };
  const busy = () => running.size > 0 || session.activeWork.length > 0;
  let lastInterrupt = 0;
  hooks.setInterrupt(() => {
    if (busy()) {
      // A second ctrl-c during a cancellation quits without waiting for the idle.
      if (cancelling) return force();
      cancelling = true;
      renderer.note("Cancelling… (ctrl-c again to quit)");
      void session.cancel().catch(() => {});
      return;
    }
    const now = Date.now();
    if (now - lastInterrupt < EXIT_WINDOW_MS) return end();
    lastInterrupt = now;
    renderer.note(`Press Ctrl-C again within ${EXIT_WINDOW_MS / 1000} s to exit (or Ctrl-D, or :quit).`);
  });
  const agentWorks = new Set<ForegroundWork>();
  const agentWork = session.onForegroundWork((work) => {
    renderer.note(`The agent started work on its own (${work.id})`);
    agentWorks.add(work);
  });
  // End lines are printed at the idle itself (listeners run right after the store applied it),
  // so they land before anything of the next queued prompt.
  const endLines = session.onUpdate((update) => {
    if (update.sessionUpdate !== "state_update") return;
    for (const [turn, entry] of running) {
      const result = turn.work?.result;
      if (entry.printed || result === undefined) continue;
      entry.printed = true;
      renderer.endTurn(result, entry.overlapped ? labelOf(entry.text) : undefined);
      code = exitCodeFor(result.stopReason) === 1 ? 1 : 0;
    }
    for (const work of agentWorks) {
      if (work.result === undefined) continue;
      agentWorks.delete(work);
      renderer.endTurn(work.result, `agent ${work.id}`);
    }
  });
  const start = (text: string) => {
    const turn = session.prompt(text);
    const entry = { overlapped: running.size > 0, printed: false, text };
    for (const other of running.values()) other.overlapped ||= entry.overlapped;
    running.set(turn, entry);
    renderer.startTurn();
    if (entry.overlapped) renderer.note(`Sent ${labelOf(text)} while the agent works: it queues it or steers it in`);
    void turn.done
      .then(
        (result) => {
          if (entry.printed) return;
          entry.printed = true;
          renderer.endTurn(result, entry.overlapped ? labelOf(text) : undefined);
          code = exitCodeFor(result.stopReason) === 1 ? 1 : 0;
        },
        (error: unknown) => {
          // The connection is gone: what was streamed stays on screen, the failure below it.
          if (error instanceof ConnectionError) renderer.settle();
          renderer.note(`Prompt ${labelOf(text)} failed: ${errorText(error as Error)}`);
          code = 1;
        },
      )
      .finally(() => {
        running.delete(turn);
        if (running.size === 0) cancelling = false;
        wake?.();
      });
  };
  renderer.setPrompting(true);
  try {
    while (true) {
      while (queue.length === 0 && !ended) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      const text = queue.shift();
      if (text === undefined) break;
      const trimmed = text.trim();
      if (trimmed.length === 0) continue;
      if (trimmed === ":quit" || trimmed === ":q") break;
      if (trimmed.startsWith(":config ")) {
        const [configId, value] = trimmed.slice(8).trim().split("=");
        try {
          await setConfig(session, configId ?? "", value ?? "");
        } catch (error) {
          renderer.note(`set config ${configId} failed: ${errorText(error as Error)}`);
        }
        continue;
      }
      start(trimmed);
    }
    if (forcedExit) return 130;
    // Input ended (or :quit): let the turns already sent finish (a second ctrl-c stops waiting).
    const allDone = Promise.all([...running.keys()].map((t) => t.done.catch(() => {})));
    if ((await Promise.race([allDone, forced])) === "forced") return 130;
    return code;
  } finally {
    agentWork.dispose();
    endLines.dispose();
    renderer.setPrompting(false);
    lines?.close();
    await hooks.shutdown();
  }
}
