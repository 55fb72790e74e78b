// One raw client of the scale cases: a `ws` WebSocket, `JSON.parse` per text frame, no ACP
// library. It initializes, opens one session, and prompts it; each `agent_message_chunk` it
// receives is reported with its delivery latency (the agent's append stamp to now).
import { WebSocket } from "ws";
import { CWD, clientInfo } from "../full/workload.js";
import { chunkStamps, nowMicros } from "./paced-work.js";

export interface Message {
  id?: number;
  result?: { sessionId?: string };
  error?: unknown;
  method?: string;
  params?: { update?: { sessionUpdate?: string; state?: string; content?: { text?: string } } };
}

/** Why a connection attempt did not give a session. */
export interface Refusal {
  /** The HTTP status of a refused upgrade; 0 when the connection failed without one. */
  status: number;
  retryAfter: string | undefined;
  error: string | undefined;
}

export class RefusedError extends Error {
  constructor(readonly refusal: Refusal) {
    super(`connection refused: ${refusal.status} ${refusal.error ?? ""}`);
  }
}

export class RawSession {
  #nextId = 0;
  readonly #waiting = new Map<number, (message: Message) => void>();
  #idle: (() => void) | undefined;
  #sessionId = "";
  /** Called for each chunk received with its latency from the append and from when it was due (µs). */
  onChunk: (latencyMicros: number, latenessMicros: number) => void = () => {};

  private constructor(private readonly socket: WebSocket) {
    socket.on("message", (data) => this.#receive(JSON.parse(String(data)) as Message));
  }

  /** Connects, initializes and opens a session; rejects with `RefusedError` if that fails. */
  static async open(url: string, timeoutMs = 15_000): Promise<RawSession> {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.terminate();
        reject(new RefusedError({ status: 0, retryAfter: undefined, error: "timeout" }));
      }, timeoutMs);
      socket.once("open", () => {
        clearTimeout(timer);
        resolve();
      });
      socket.once("unexpected-response", (_request, response) => {
        clearTimeout(timer);
        const retryAfter = response.headers["retry-after"];
        reject(new RefusedError({ status: response.statusCode ?? 0, retryAfter, error: response.statusMessage }));
        response.resume();
        socket.terminate();
      });
      socket.once("error", (error) => {
        clearTimeout(timer);
        reject(
          new RefusedError({
            status: 0,
            retryAfter: undefined,
            error: (error as { code?: string }).code ?? error.message,
          }),
        );
      });
    });
    socket.on("error", () => {});
    const session = new RawSession(socket);
    const closed = new Promise<never>((_resolve, reject) =>
      socket.once("close", (code) =>
        reject(new RefusedError({ status: 0, retryAfter: undefined, error: `closed ${code}` })),
      ),
    );
    closed.catch(() => {});
    await Promise.race([session.#open(), closed]);
    return session;
  }

  async #open(): Promise<void> {
    await this.#request("initialize", { protocolVersion: 2, info: clientInfo, capabilities: {} });
    const answer = await this.#request("session/new", { cwd: CWD, mcpServers: [] });
    if (answer.error || !answer.result?.sessionId)
      throw new RefusedError({ status: 0, retryAfter: undefined, error: JSON.stringify(answer.error) });
    this.#sessionId = answer.result.sessionId;
  }

  /** Prompts the session with `text` and resolves at the turn's idle. */
  async prompt(text: string): Promise<void> {
    const idle = new Promise<void>((resolve) => {
      this.#idle = resolve;
    });
    const answer = await this.#request("session/prompt", {
      sessionId: this.#sessionId,
      prompt: [{ type: "text", text }],
    });
    if (answer.error) throw new Error(`prompt failed: ${JSON.stringify(answer.error)}`);
    await idle;
  }

  get open(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  /** Closes the WebSocket and resolves once it is closed. */
  close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once("close", () => resolve());
      this.socket.close();
    });
  }

  #request(method: string, params: unknown): Promise<Message> {
    const id = ++this.#nextId;
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      this.socket.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    });
  }

  #receive(message: Message): void {
    if (message.method === "session/update") {
      const update = message.params?.update;
      if (update?.sessionUpdate === "agent_message_chunk") {
        const now = nowMicros();
        const { due, appended } = chunkStamps(update.content?.text ?? "");
        this.onChunk(now - appended, now - due);
      } else if (update?.sessionUpdate === "state_update" && update.state === "idle") this.#idle?.();
      return;
    }
    if (message.id === undefined) return;
    const waiting = this.#waiting.get(message.id);
    this.#waiting.delete(message.id);
    waiting?.(message);
  }
}
