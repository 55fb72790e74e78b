// A loopback mock of the model APIs the agents under test call: OpenAI-compatible chat
// completions (qwen-code, copilot) and the Gemini API (gemini-cli). Both play the scripts of
// mock-script.ts, streamed as server-sent events.
import { appendFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Conversation, type DeclaredTool, type Reply, scriptReply } from "./mock-script.js";

export interface MockServer {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  close(): Promise<void>;
}

const MAX_BODY = 16 * 1024 * 1024;

/** Starts the mock on a free loopback port; `logFile` gets one line per request (for diagnosis). */
export async function startMockServer(logFile?: string): Promise<MockServer> {
  const server: Server = createServer((req, res) => {
    void handle(req, res, logFile).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, logFile: string | undefined): Promise<void> {
  const url = new URL(req.url ?? "/", "http://mock");
  const body = req.method === "POST" ? await readJson(req) : undefined;
  if (logFile !== undefined) appendFileSync(logFile, `${new Date().toISOString()} ${req.method} ${url.pathname}\n`);
  if (req.method === "GET" && url.pathname.endsWith("/models")) {
    return json(res, 200, { object: "list", data: [{ id: "mock-model", object: "model", owned_by: "compat" }] });
  }
  if (req.method === "POST" && url.pathname.endsWith("/chat/completions")) return openAiChat(body, res);
  const gemini = /\/models\/([^/:]+):(streamGenerateContent|generateContent|countTokens)$/.exec(url.pathname);
  if (req.method === "POST" && gemini) {
    if (gemini[2] === "countTokens") return json(res, 200, { totalTokens: 10 });
    return geminiGenerate(body, gemini[1] ?? "mock", gemini[2] === "streamGenerateContent", res);
  }
  json(res, 404, { error: { code: 404, message: `the compat mock does not serve ${req.method} ${url.pathname}` } });
}

// ---- OpenAI-compatible chat completions ----

interface OpenAiMessage {
  role: string;
  content?: unknown;
  tool_calls?: unknown[];
}

function openAiConversation(body: Record<string, unknown>): Conversation {
  const messages = (Array.isArray(body.messages) ? body.messages : []) as OpenAiMessage[];
  const marked = findLastIndex(messages, (m) => m.role === "user" && textOfOpenAi(m.content).includes("compat-"));
  const lastUser =
    marked >= 0 ? marked : findLastIndex(messages, (m) => m.role === "user" && textOfOpenAi(m.content).length > 0);
  const tools = (Array.isArray(body.tools) ? body.tools : []).map(
    (t: { function?: { name?: string; parameters?: unknown } }) => ({
      name: t.function?.name ?? "",
      parameters: t.function?.parameters as DeclaredTool["parameters"],
    }),
  );
  const format = body.response_format as { type?: string } | undefined;
  return {
    lastUserText: lastUser < 0 ? "" : textOfOpenAi(messages[lastUser]?.content),
    toolResultSeen: messages.slice(lastUser + 1).some((m) => m.role === "tool"),
    tools,
    wantsJson: format?.type === "json_object" || format?.type === "json_schema",
  };
}

function textOfOpenAi(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: { type?: string; text?: string }) => (part.type === "text" ? (part.text ?? "") : ""))
    .join("");
}

async function openAiChat(body: Record<string, unknown> | undefined, res: ServerResponse): Promise<void> {
  const reply = scriptReply(openAiConversation(body ?? {}));
  const model = typeof body?.model === "string" ? body.model : "mock-model";
  const id = `chatcmpl-${Math.random().toString(36).slice(2)}`;
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  if (body?.stream !== true) {
    const message =
      reply.kind === "text"
        ? { role: "assistant", content: reply.pieces.join("") }
        : { role: "assistant", content: null, tool_calls: [openAiToolCall(reply)] };
    const finish = reply.kind === "text" ? "stop" : "tool_calls";
    return json(res, 200, {
      id,
      object: "chat.completion",
      created: now(),
      model,
      choices: [{ index: 0, message, finish_reason: finish }],
      usage,
    });
  }
  const stream = sse(res);
  const chunk = (delta: unknown, finish: string | null) =>
    stream.send({
      id,
      object: "chat.completion.chunk",
      created: now(),
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  if (reply.kind === "tool") {
    chunk({ role: "assistant", content: null, tool_calls: [{ index: 0, ...openAiToolCall(reply) }] }, null);
    chunk({}, "tool_calls");
  } else {
    for (const [i, piece] of reply.pieces.entries()) {
      if (!(await stream.pause(i === 0 ? 0 : reply.delayMs))) return;
      chunk(i === 0 ? { role: "assistant", content: piece } : { content: piece }, null);
    }
    chunk({}, "stop");
  }
  const options = body.stream_options as { include_usage?: boolean } | undefined;
  if (options?.include_usage)
    stream.send({ id, object: "chat.completion.chunk", created: now(), model, choices: [], usage });
  stream.end("[DONE]");
}

function openAiToolCall(reply: Extract<Reply, { kind: "tool" }>) {
  return {
    id: `call_${Math.random().toString(36).slice(2, 10)}`,
    type: "function",
    function: { name: reply.name, arguments: JSON.stringify(reply.args) },
  };
}

// ---- Gemini API ----

interface GeminiContent {
  role?: string;
  parts?: { text?: string; functionResponse?: unknown; functionCall?: unknown }[];
}

function geminiConversation(body: Record<string, unknown>): Conversation {
  const contents = (Array.isArray(body.contents) ? body.contents : []) as GeminiContent[];
  const textOf = (c: GeminiContent | undefined) => (c?.parts ?? []).map((p) => p.text ?? "").join("");
  const lastUser = findLastIndex(contents, (c) => c.role === "user" && textOf(c).includes("compat-"));
  const fallbackUser = findLastIndex(contents, (c) => c.role === "user" && textOf(c).length > 0);
  const userIndex = lastUser >= 0 ? lastUser : fallbackUser;
  const declared = (Array.isArray(body.tools) ? body.tools : []) as {
    functionDeclarations?: { name: string; parameters?: unknown; parametersJsonSchema?: unknown }[];
  }[];
  const tools = declared.flatMap((t) =>
    (t.functionDeclarations ?? []).map((d) => ({
      name: d.name,
      parameters: (d.parametersJsonSchema ?? d.parameters) as DeclaredTool["parameters"],
    })),
  );
  const config = body.generationConfig as { responseMimeType?: string } | undefined;
  return {
    lastUserText: userIndex < 0 ? "" : textOf(contents[userIndex]),
    toolResultSeen: contents
      .slice(userIndex + 1)
      .some((c) => (c.parts ?? []).some((p) => p.functionResponse !== undefined)),
    tools,
    wantsJson: config?.responseMimeType === "application/json",
  };
}

async function geminiGenerate(
  body: Record<string, unknown> | undefined,
  model: string,
  streamed: boolean,
  res: ServerResponse,
): Promise<void> {
  const reply = scriptReply(geminiConversation(body ?? {}));
  const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
  const candidate = (parts: unknown[], finishReason?: string) => ({
    candidates: [{ content: { role: "model", parts }, index: 0, ...(finishReason ? { finishReason } : {}) }],
    modelVersion: model,
    ...(finishReason ? { usageMetadata } : {}),
  });
  if (!streamed) {
    const parts =
      reply.kind === "text"
        ? [{ text: reply.pieces.join("") }]
        : [{ functionCall: { name: reply.name, args: reply.args } }];
    return json(res, 200, candidate(parts, "STOP"));
  }
  const stream = sse(res);
  if (reply.kind === "tool") {
    stream.send(candidate([{ functionCall: { name: reply.name, args: reply.args } }], "STOP"));
  } else {
    for (const [i, piece] of reply.pieces.entries()) {
      if (!(await stream.pause(i === 0 ? 0 : reply.delayMs))) return;
      const last = i === reply.pieces.length - 1;
      stream.send(candidate([{ text: piece }], last ? "STOP" : undefined));
    }
  }
  stream.end();
}

// ---- plumbing ----

function sse(res: ServerResponse) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  let closed = false;
  res.on("close", () => {
    closed = true;
  });
  return {
    send(data: unknown) {
      if (!closed) res.write(`data: ${JSON.stringify(data)}\n\n`);
    },
    end(last?: string) {
      if (!closed && last !== undefined) res.write(`data: ${last}\n\n`);
      res.end();
    },
    /** Waits `ms`; false when the client went away meanwhile (a cancelled turn). */
    async pause(ms: number): Promise<boolean> {
      if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
      return !closed;
    },
  };
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new Error("request body over 16 MiB");
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  return text.length === 0 ? {} : (JSON.parse(text) as Record<string, unknown>);
}

function findLastIndex<T>(items: T[], predicate: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (predicate(items[i] as T)) return i;
  return -1;
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}
