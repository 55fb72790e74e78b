import {
  BeforeWriteListeners,
  ConnectionError,
  ConnectionErrorKinds,
  type Logger,
  type TransportSink,
} from "@acp-kit/protocol/jsonrpc";
import { scanNotification } from "../notification-scan.js";
import { type MessageShape, parseJson, respondsOnConnectionStream, shapeOf } from "../wire.js";
import type { HttpServerTransport, ResolvedLimits } from "./options.js";
import { type AttachResult, OutboundStream, type OutboundStreamOwner } from "./outbound-stream.js";
import type { OutputBudget, OutputBudgetMember } from "./output-budget.js";
import type { ReplayBudget } from "./replay-budget.js";

/** What the connections of one server share. */
export interface SharedBudgets {
  output: OutputBudget;
  replay: ReplayBudget;
}

/** Where a message for the client goes: the connection stream (`null`) or a session's. */
type Route = string | null;

/** Why a POST was not taken, as the handler answers it. */
export type ReceiveRefusal = { status: number; message: string };

/**
 * The server side of one ACP connection over Streamable HTTP. The agent sees a `Transport`;
 * the handler feeds it POST bodies and attaches GET responses to its streams. Output is routed
 * by message: responses go where their request's route says, requests and notifications to
 * the stream of their `params.sessionId` (the connection stream without one).
 */
export class HttpConnection implements HttpServerTransport, OutputBudgetMember {
  private sink: TransportSink | undefined;
  private readonly early: string[] = [];
  private readonly connectionStream: OutboundStream;
  private readonly sessionStreams = new Map<string, OutboundStream>();
  /** The session stream `streamFor` found last (session streams stay as long as the connection). */
  private lastRoute: string | undefined;
  private lastStream: OutboundStream | undefined;
  /** Client requests waiting for the agent's answer → where it goes. */
  private readonly responseRoutes = new Map<string, Route>();
  /** Agent requests waiting for the client's answer → the session they belong to. */
  private readonly agentRequests = new Map<string, Route>();
  private bufferedBytes = 0;
  private drainWaiters: (() => void)[] = [];
  private stallTimer: ReturnType<typeof setTimeout> | undefined;
  private detachedTimer: ReturnType<typeof setTimeout> | undefined;
  /** The last request or read (`Date.now()`), for the detached timeout. */
  private lastActivity = 0;
  private initialize: { idKey: string; resolve(payload: string): void } | undefined;
  private ended = false;
  private readonly beforeWrite: BeforeWriteListeners;
  private readonly owner: OutboundStreamOwner;
  private resolveClosed!: () => void;
  /** Resolves once the connection ended (either side). */
  readonly closed = new Promise<void>((resolve) => {
    this.resolveClosed = resolve;
  });

  constructor(
    readonly connectionId: string,
    private readonly limits: ResolvedLimits,
    private readonly logger: Logger | undefined,
    private readonly budgets: SharedBudgets,
  ) {
    this.beforeWrite = new BeforeWriteListeners(logger);
    this.owner = {
      queued: (bytes) => this.setBuffered(this.bufferedBytes + bytes),
      taken: (bytes) => this.onTaken(bytes),
      dropped: (bytes) => this.setBuffered(this.bufferedBytes - bytes),
      receiverChanged: () => this.armDetachedTimer(),
    };
    this.connectionStream = this.newStream();
    this.armDetachedTimer();
  }

  // ---- Transport (the agent's side) ----

  start(sink: TransportSink): void {
    this.sink = sink;
    for (const payload of this.early.splice(0)) void sink.message(payload);
  }

  send(payload: string): void | Promise<void> {
    if (this.ended) throw ConnectionError.closed("The HTTP connection is closed");
    // Most of what an agent sends are notifications: routed by their session without a parse.
    const notification = scanNotification(payload);
    let route: Route;
    if (notification) route = notification.sessionId ?? null;
    else {
      const shape = shapeOf(parseJson(payload));
      if (this.initialize && shape.kind === "response" && shape.idKey === this.initialize.idKey) {
        this.initialize.resolve(payload);
        this.initialize = undefined;
        return;
      }
      route = this.routeOut(shape);
    }
    this.beforeWrite.run();
    this.streamFor(route).push(payload);
    if (this.bufferedBytes > this.limits.maxBufferedBytes) {
      const error = new ConnectionError(
        ConnectionErrorKinds.WriteFailed,
        `The client left more than ${this.limits.maxBufferedBytes} bytes unread; connection closed`,
      );
      this.fail(error);
      throw error;
    }
    if (this.bufferedBytes <= this.waitMark()) return;
    this.armStallTimer();
    this.budgets.output.wait(this);
    return new Promise<void>((resolve) => this.drainWaiters.push(resolve));
  }

  /** The server's unread output is back within its budget: only the connection's own mark holds. */
  budgetRelieved(): void {
    if (this.drainWaiters.length > 0 && this.bufferedBytes <= this.waitMark()) this.drained();
    else if (this.drainWaiters.length > 0) this.budgets.output.wait(this);
  }

  async close(): Promise<void> {
    if (this.ended) return;
    // Queued output still reaches receivers that are attached; streams then end.
    this.finish(undefined, false);
  }

  onBeforeWrite(listener: () => void): () => void {
    return this.beforeWrite.add(listener);
  }

  describePeer(): { source: string } {
    return { source: `Streamable HTTP connection ${this.connectionId}` };
  }

  // ---- The handler's side ----

  get isEnded(): boolean {
    return this.ended;
  }

  /** Delivers `payload` to the agent and resolves once its answer is the response to `initialize`. */
  initializeWith(payload: string, idKey: string): Promise<string> {
    const answered = new Promise<string>((resolve) => {
      this.initialize = { idKey, resolve };
    });
    this.deliver(payload);
    return answered;
  }

  /**
   * One POSTed message. `sessionHeader` is the request's `Acp-Session-Id`. Resolves once the
   * agent took it (its inbound backpressure holds the 202 back), or with a refusal.
   */
  async receive(
    payload: string,
    shape: MessageShape,
    sessionHeader: string | undefined,
  ): Promise<ReceiveRefusal | undefined> {
    this.touch();
    if (shape.kind === "response") {
      const route = shape.idKey === undefined ? undefined : this.agentRequests.get(shape.idKey);
      if (typeof route === "string" && sessionHeader !== route)
        return { status: 400, message: sessionHeader ? "Mismatched Acp-Session-Id" : "Missing Acp-Session-Id" };
      if (shape.idKey !== undefined) this.agentRequests.delete(shape.idKey);
    } else if (shape.kind === "request" || shape.kind === "notification") {
      if (shape.sessionId !== undefined && sessionHeader !== undefined && shape.sessionId !== sessionHeader)
        return { status: 400, message: "Mismatched Acp-Session-Id" };
      if (shape.kind === "request" && shape.idKey !== undefined) {
        const session = sessionHeader ?? shape.sessionId;
        const route = respondsOnConnectionStream(shape.method ?? "") || session === undefined ? null : session;
        this.responseRoutes.set(shape.idKey, route);
      }
    }
    await this.deliver(payload);
    return undefined;
  }

  /** A GET: attaches its response to the connection stream or to `sessionId`'s. */
  attach(sessionId: string | undefined, lastEventId: string | undefined): AttachResult | "too-many-streams" {
    this.touch();
    if (sessionId === undefined) return this.connectionStream.attach(lastEventId);
    if (!this.sessionStreams.has(sessionId) && this.sessionStreams.size + 1 >= this.limits.maxStreamsPerConnection)
      return "too-many-streams";
    return this.streamFor(sessionId).attach(lastEventId);
  }

  /** DELETE, shutdown or a limit: the agent's transport ends (with `error` if given), streams close now. */
  terminate(error?: ConnectionError): void {
    this.finish(error, true);
  }

  private fail(error: ConnectionError): void {
    this.logger?.warn?.("ACP HTTP connection closed", { connectionId: this.connectionId, reason: error.message });
    this.finish(error, true);
  }

  private finish(error: ConnectionError | undefined, abort: boolean): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.stallTimer);
    clearTimeout(this.detachedTimer);
    for (const stream of [this.connectionStream, ...this.sessionStreams.values()]) {
      // A stream with no receiver can get none once ended: what it holds would never be read.
      if (abort || !stream.hasReceiver) this.setBuffered(this.bufferedBytes - stream.abort());
      else stream.end();
    }
    this.budgets.output.leave(this);
    this.releaseDrainWaiters();
    this.sink?.closed(error);
    this.resolveClosed();
  }

  private deliver(payload: string): Promise<void> {
    if (!this.sink) {
      this.early.push(payload);
      return Promise.resolve();
    }
    return Promise.resolve(this.sink.message(payload));
  }

  private routeOut(shape: MessageShape): Route {
    if (shape.kind === "response") {
      if (shape.idKey === undefined) return null;
      const route = this.responseRoutes.get(shape.idKey);
      this.responseRoutes.delete(shape.idKey);
      return route ?? null;
    }
    const route = shape.sessionId ?? null;
    if (shape.kind === "request" && shape.idKey !== undefined) this.agentRequests.set(shape.idKey, route);
    return route;
  }

  private streamFor(route: Route): OutboundStream {
    if (route === null) return this.connectionStream;
    // A turn's updates name one session: a comparison, not a hash of a new string each time.
    if (route === this.lastRoute && this.lastStream !== undefined) return this.lastStream;
    let stream = this.sessionStreams.get(route);
    if (!stream) {
      stream = this.newStream();
      this.sessionStreams.set(route, stream);
    }
    this.lastRoute = route;
    this.lastStream = stream;
    return stream;
  }

  private newStream(): OutboundStream {
    return new OutboundStream(this.owner, {
      replayWindowBytes: this.limits.replayWindowBytes,
      replayBudget: this.budgets.replay,
      keepaliveMs: this.limits.keepaliveMs,
    });
  }

  /** Past this much unread output the agent waits: its own mark, or less while the server is over budget. */
  private waitMark(): number {
    return Math.min(this.limits.highWaterMark, this.budgets.output.shareBytes);
  }

  private setBuffered(bytes: number): void {
    const before = this.bufferedBytes;
    this.bufferedBytes = bytes;
    this.budgets.output.changed(before, bytes);
  }

  private onTaken(bytes: number): void {
    this.setBuffered(this.bufferedBytes - bytes);
    this.touch();
    // Within the mark, only a waiting agent or a running stall timer has anything to hear.
    if (this.bufferedBytes <= this.waitMark()) {
      if (this.drainWaiters.length > 0 || this.stallTimer !== undefined) this.drained();
    } else if (this.drainWaiters.length > 0 || this.bufferedBytes > this.limits.highWaterMark) this.armStallTimer(true);
  }

  private drained(): void {
    clearTimeout(this.stallTimer);
    this.stallTimer = undefined;
    this.budgets.output.leave(this);
    this.releaseDrainWaiters();
  }

  private releaseDrainWaiters(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Output over the high-water mark must move within `maxOutputStallMs`, or the connection goes. */
  private armStallTimer(restart = false): void {
    if (this.stallTimer !== undefined && !restart) return;
    clearTimeout(this.stallTimer);
    this.stallTimer = setTimeout(() => {
      this.fail(
        new ConnectionError(
          ConnectionErrorKinds.WriteFailed,
          `The client read none of its output for ${this.limits.maxOutputStallMs} ms; connection closed`,
        ),
      );
    }, this.limits.maxOutputStallMs);
  }

  /** A request or a read: while the detached timer runs, it counts from now. */
  private touch(): void {
    if (this.detachedTimer !== undefined) this.lastActivity = Date.now();
  }

  /**
   * No stream attached: the connection is closed after `detachedTimeoutMs` without a request.
   * Called whenever a receiver attaches or leaves. Activity only moves `lastActivity` on: the
   * timer checks it when it fires (a request costs no timer cleared and set again).
   */
  private armDetachedTimer(): void {
    if (this.ended || this.limits.detachedTimeoutMs <= 0) return;
    if (this.isAttached()) {
      clearTimeout(this.detachedTimer);
      this.detachedTimer = undefined;
    } else if (this.detachedTimer === undefined) {
      this.lastActivity = Date.now();
      this.setDetachedTimer(this.limits.detachedTimeoutMs);
    }
  }

  private setDetachedTimer(delayMs: number): void {
    this.detachedTimer = setTimeout(() => {
      this.detachedTimer = undefined;
      if (this.ended || this.isAttached()) return;
      const left = this.lastActivity + this.limits.detachedTimeoutMs - Date.now();
      if (left > 0) this.setDetachedTimer(left);
      else
        this.fail(ConnectionError.closed(`No stream open for ${this.limits.detachedTimeoutMs} ms; connection closed`));
    }, delayMs);
  }

  private isAttached(): boolean {
    if (this.connectionStream.hasReceiver) return true;
    for (const stream of this.sessionStreams.values()) if (stream.hasReceiver) return true;
    return false;
  }
}
