// The mock model APIs the compat cells stand on: each script, in both API dialects, as an
// agent's SDK reads it (server-sent events, then the tool result round trip).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AFTER_TOOL_REPLY, PROMPTS, TEXT_REPLY, TOOL_CONTENT } from "../src/mock-script.js";
import { type MockServer, startMockServer } from "../src/mock-server.js";

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer();
});
afterAll(() => mock.close());

async function events(path: string, body: unknown): Promise<Record<string, unknown>[]> {
  const response = await fetch(`${mock.origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.headers.get("content-type")).toBe("text/event-stream");
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((block) => block.startsWith("data: ") && block !== "data: [DONE]")
    .map((block) => JSON.parse(block.slice(6)) as Record<string, unknown>);
}

const writeTool = {
  name: "write_file",
  parameters: { type: "object", properties: { file_path: { type: "string" }, content: { type: "string" } } },
};

describe("OpenAI chat completions", () => {
  const openAi = (messages: unknown[]) =>
    events("/v1/chat/completions", {
      model: "m",
      stream: true,
      messages,
      tools: [
        { type: "function", function: writeTool },
        { type: "function", function: { name: "read_file" } },
      ],
    });
  const deltas = (chunks: Record<string, unknown>[]) =>
    chunks.map((c) => (c.choices as { delta: Record<string, unknown>; finish_reason: string | null }[])[0]);

  it("streams the plain reply in pieces, then stop", async () => {
    const choices = deltas(
      await openAi([
        { role: "system", content: "sys" },
        { role: "user", content: PROMPTS.text },
      ]),
    );
    expect(choices.map((c) => c?.delta.content ?? "").join("")).toBe(TEXT_REPLY);
    expect(choices.length).toBeGreaterThan(2);
    expect(choices.at(-1)?.finish_reason).toBe("stop");
  });

  it("calls the declared write tool with arguments filled by name, then replies after the tool result", async () => {
    const prompt = { role: "user", content: [{ type: "text", text: PROMPTS.tool("/tmp/x/note.txt") }] };
    const first = deltas(await openAi([prompt]));
    const calls = first[0]?.delta.tool_calls as
      | { id: string; function: { name: string; arguments: string } }[]
      | undefined;
    const call = calls?.[0];
    expect(call?.function.name).toBe("write_file");
    expect(JSON.parse(call?.function.arguments ?? "{}")).toEqual({
      file_path: "/tmp/x/note.txt",
      content: TOOL_CONTENT,
    });
    expect(first.at(-1)?.finish_reason).toBe("tool_calls");
    const after = deltas(
      await openAi([
        prompt,
        { role: "assistant", tool_calls: [call] },
        { role: "tool", tool_call_id: call?.id, content: "ok" },
      ]),
    );
    expect(after.map((c) => c?.delta.content ?? "").join("")).toBe(AFTER_TOOL_REPLY);
  });

  it("answers a side query that asks for JSON with JSON", async () => {
    const response = await fetch(`${mock.origin}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({
        messages: [{ role: "user", content: "title?" }],
        response_format: { type: "json_object" },
      }),
    });
    const body = (await response.json()) as { choices: { message: { content: string } }[] };
    expect(() => JSON.parse(body.choices[0]?.message.content ?? "")).not.toThrow();
  });
});

describe("Gemini API", () => {
  const gemini = (contents: unknown[]) =>
    events("/v1beta/models/gemini-x:streamGenerateContent?alt=sse", {
      contents,
      tools: [{ functionDeclarations: [{ name: "write_file", parametersJsonSchema: writeTool.parameters }] }],
    });
  const parts = (chunks: Record<string, unknown>[]) =>
    chunks.flatMap(
      (c) => (c.candidates as { content: { parts: Record<string, unknown>[] } }[])[0]?.content.parts ?? [],
    );

  it("streams the plain reply and ends with STOP and usage", async () => {
    const chunks = await gemini([{ role: "user", parts: [{ text: PROMPTS.text }] }]);
    expect(
      parts(chunks)
        .map((p) => p.text)
        .join(""),
    ).toBe(TEXT_REPLY);
    expect(chunks.at(-1)).toMatchObject({
      candidates: [{ finishReason: "STOP" }],
      usageMetadata: { totalTokenCount: 15 },
    });
  });

  it("calls the write tool, then replies after the function response", async () => {
    const prompt = { role: "user", parts: [{ text: PROMPTS.tool("/tmp/y.txt") }] };
    const call = parts(await gemini([prompt]))[0]?.functionCall as { name: string; args: unknown };
    expect(call).toEqual({ name: "write_file", args: { file_path: "/tmp/y.txt", content: TOOL_CONTENT } });
    const after = await gemini([
      prompt,
      { role: "model", parts: [{ functionCall: call }] },
      { role: "user", parts: [{ functionResponse: { name: "write_file", response: { output: "ok" } } }] },
    ]);
    expect(
      parts(after)
        .map((p) => p.text)
        .join(""),
    ).toBe(AFTER_TOOL_REPLY);
  });
});

it("stops streaming the slow reply when the agent abandons the request", async () => {
  const controller = new AbortController();
  const response = await fetch(`${mock.origin}/v1/chat/completions`, {
    method: "POST",
    body: JSON.stringify({ stream: true, messages: [{ role: "user", content: PROMPTS.slow }] }),
    signal: controller.signal,
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  expect(first).toContain("tick 1.");
  controller.abort();
  await expect(reader.read()).rejects.toThrow();
  // The server is still serving: the abandoned stream did not take it down.
  const models = await fetch(`${mock.origin}/v1/models`);
  expect(models.status).toBe(200);
});
