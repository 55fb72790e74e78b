// One raw client of the scale cases over Streamable HTTP: `node:http` POSTs, the connection's and
// the session's SSE GET streams read by sse-reader.ts, `JSON.parse` per event, no ACP library.
// The same client as raw-session.ts (WebSocket): it initializes, opens one session, and prompts
// it; each `agent_message_chunk` it receives is reported with its delivery latency.
import { Agent, type ClientRequest, type IncomingHttpHeaders, request } from "node:http";
import { CWD, clientInfo } from "../full/workload.js";
import { chunkStamps, nowMicros } from "./paced-work.js";
import { type Message, RefusedError } from "./raw-session.js";
import { SseReader } from "./sse-reader.js";

const CONNECTION_ID = "acp-connection-id";
const SESSION_ID = "acp-session-id";

/**
 * The POSTs of all sessions of a load process share one keep-alive pool, as a proxy's upstream
 * connections carry many clients' requests (and a client's own idle POST socket is closed by
 * either server after Node's 5 s keep-alive timeout anyway); each GET stream holds its own socket.
 */
const posts = new Agent({ keepAlive: true, maxSockets: 64 });
const streams = new Agent({ keepAlive: false });

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function refusal(status: number, headers: IncomingHttpHeaders | undefined, error: string): RefusedError {
  const retryAfter = headers?.["retry-after"];
  return new RefusedError({ status, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, error });
}

function connectionFailure(error: Error): RefusedError {
  return refusal(0, undefined, (error as { code?: string }).code ?? error.message);
}

/**
 * One request on the keep-alive pool; resolves with the whole reply. A request reset on a reused
 * socket is sent again once: the server closed that idle socket as the request went out (its
 * keep-alive timeout), so it never read it (Node's documented retry, `request.reusedSocket`).
 */
function send(
  method: string,
  url: URL,
  headers: Record<string, string>,
  body?: string,
  retried = false,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      {
        method,
        agent: posts,
        headers:
          body === undefined
            ? headers
            : { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
      },
      (response) => {
        response.setEncoding("utf8");
        let text = "";
        response.on("data", (piece: string) => {
          text += piece;
        });
        response.once("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
        );
        response.once("error", (error) => reject(connectionFailure(error)));
      },
    );
    sent.once("error", (error) => {
      if (!retried && sent.reusedSocket && (error as { code?: string }).code === "ECONNRESET")
        resolve(send(method, url, headers, body, true));
      else reject(connectionFailure(error));
    });
    sent.end(body);
  });
}

export class RawHttpSession {
  #nextId = 0;
  readonly #waiting = new Map<number, (message: Message) => void>();
  #idle: (() => void) | undefined;
  #connectionId = "";
  #sessionId = "";
  /** The GET streams, each with the promise of its socket's close. */
  readonly #streams: { request: ClientRequest; closed: Promise<void> }[] = [];
  #attached = 0;
  #closing: Promise<void> | undefined;
  /** Called for each chunk received with its latency from the append and from when it was due (µs). */
  onChunk: (latencyMicros: number, latenessMicros: number) => void = () => {};

  private constructor(private readonly url: URL) {}

  /**
   * `initialize` (a POST answered with the connection id), the connection stream, `session/new`
   * (answered on that stream), the session's stream; rejects with `RefusedError` if that fails.
   */
  static async open(url: string, timeoutMs = 15_000): Promise<RawHttpSession> {
    const session = new RawHttpSession(new URL(url));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(refusal(0, undefined, "timeout")), timeoutMs);
    });
    try {
      await Promise.race([session.#open(), timeout]);
    } catch (error) {
      void session.close();
      throw error instanceof RefusedError ? error : refusal(0, undefined, String(error));
    } finally {
      clearTimeout(timer);
    }
    return session;
  }

  async #open(): Promise<void> {
    const initialize = { jsonrpc: "2.0", id: ++this.#nextId, method: "initialize" };
    const params = { protocolVersion: 2, info: clientInfo, capabilities: {} };
    const answer = await send(
      "POST",
      this.url,
      { accept: "application/json, text/event-stream" },
      JSON.stringify({ ...initialize, params }),
    );
    const connectionId = answer.headers[CONNECTION_ID];
    if (answer.status !== 200 || typeof connectionId !== "string")
      throw refusal(answer.status, answer.headers, answer.body.slice(0, 200));
    this.#connectionId = connectionId;
    await this.#attach({});
    const opened = await this.#request("session/new", { cwd: CWD, mcpServers: [] });
    if (opened.error || !opened.result?.sessionId) throw refusal(0, undefined, JSON.stringify(opened.error));
    this.#sessionId = opened.result.sessionId;
    await this.#attach({ [SESSION_ID]: this.#sessionId });
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

  /** Both streams are attached. */
  get open(): boolean {
    return this.#attached === 2 && this.#closing === undefined;
  }

  /** Ends the connection (`DELETE`), then drops the streams; resolves once their sockets closed. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      if (this.#connectionId !== "")
        await send("DELETE", this.url, { [CONNECTION_ID]: this.#connectionId }).catch(() => undefined);
      for (const stream of this.#streams) stream.request.destroy();
      await Promise.all(this.#streams.map((stream) => stream.closed));
    })();
    return this.#closing;
  }

  /** Opens a GET stream (the connection's, or with `Acp-Session-Id` a session's); resolves at its 200. */
  #attach(headers: Record<string, string>): Promise<void> {
    return new Promise((resolve, reject) => {
      const reader = new SseReader((event) => {
        if (event.type === "message") this.#receive(JSON.parse(event.data) as Message);
      });
      const stream = request(
        this.url,
        {
          method: "GET",
          agent: streams,
          headers: { accept: "text/event-stream", [CONNECTION_ID]: this.#connectionId, ...headers },
        },
        (response) => {
          response.on("error", () => {});
          if (response.statusCode !== 200) {
            response.resume();
            reject(refusal(response.statusCode ?? 0, response.headers, response.statusMessage ?? ""));
            return;
          }
          this.#attached++;
          response.once("close", () => this.#attached--);
          response.setEncoding("utf8");
          response.on("data", (text: string) => reader.push(text));
          resolve();
        },
      );
      stream.on("error", (error) => reject(connectionFailure(error)));
      this.#streams.push({ request: stream, closed: new Promise((done) => stream.once("close", () => done())) });
      stream.end();
    });
  }

  /** POSTs a request (`Acp-Session-Id` when it names a session); resolves with its response from a stream. */
  #request(method: string, params: { sessionId?: string; [key: string]: unknown }): Promise<Message> {
    const id = ++this.#nextId;
    const answer = new Promise<Message>((resolve) => {
      this.#waiting.set(id, resolve);
    });
    const headers: Record<string, string> = { [CONNECTION_ID]: this.#connectionId };
    if (params.sessionId !== undefined) headers[SESSION_ID] = params.sessionId;
    return send("POST", this.url, headers, JSON.stringify({ jsonrpc: "2.0", id, method, params })).then((reply) => {
      if (reply.status === 202) return answer;
      this.#waiting.delete(id);
      throw refusal(reply.status, reply.headers, reply.body.slice(0, 200));
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
