// A resume's replay travels on the session stream, its answer (from our server) on the connection
// stream: nothing orders the two. Here the session stream is held back until the connection
// stream delivered the answer; the client must still apply the whole replay before the answer,
// so `resumeSession` resolves with the history in the store.
import { connectToAgent } from "@acp-kit/client";
import { expect, it } from "vitest";
import { ACP_SESSION_ID_HEADER, connectHttp } from "../src/index.js";
import { connectClient, startAgentServer } from "./support.js";

/** A fetch whose session streams hold their bytes from a `session/resume` POST until the connection stream moved. */
function reorderingFetch() {
  let release: (() => void) | undefined;
  let held: Promise<void> = Promise.resolve();
  const hold = (body: ReadableStream<Uint8Array>, session: boolean) => {
    const reader = body.getReader();
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        if (session) await held;
        controller.enqueue(value);
        // The connection stream moved on after the resume was sent: let the session stream go.
        if (!session) release?.();
      },
      cancel: (reason) => reader.cancel(reason),
    });
  };
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (init?.method === "POST" && typeof init.body === "string" && init.body.includes('"session/resume"'))
      held = new Promise((resolve) => {
        release = resolve;
      });
    const response = await globalThis.fetch(input, init);
    if (init?.method !== "GET" || !response.body) return response;
    const session = new Headers(init.headers).has(ACP_SESSION_ID_HEADER);
    return new Response(hold(response.body, session), { status: response.status, headers: response.headers });
  };
  return fetch;
}

it("resumeSession over HTTP resolves with the whole replay, even when the answer's stream is ahead", async () => {
  const server = await startAgentServer();
  const first = await connectClient(await connectHttp(server.url));
  const session = await first.newSession({ cwd: "/w" });
  await session.prompt("count 5").done;
  const history = session.store.getSnapshot().timeline.map((e) => (e.type === "message" ? e.messageId : e.type));
  await first.close();

  const second = await connectToAgent(await connectHttp(server.url, { fetch: reorderingFetch() }), {
    info: { name: "reordered", version: "0" },
  });
  try {
    const resumed = await second.resumeSession(session.sessionId, { cwd: "/w", replay: true });
    const replayed = resumed.store.getSnapshot();
    expect(replayed.timeline.map((e) => (e.type === "message" ? e.messageId : e.type))).toEqual(history);
    expect(replayed.state).toMatchObject({ state: "idle", stopReason: "end_turn" });
  } finally {
    await second.close();
  }
});
