// A gap on the connection stream may have lost responses (session/new's, session/resume's, ...):
// nothing else would ever settle them, so the connection ends, saying why.
import { ConnectionError } from "@acp-kit/client";
import { expect, it } from "vitest";
import { ACP_SESSION_ID_HEADER, connectHttp, type ReplayGap } from "../src/index.js";
import { connectClient, startAgentServer } from "./support.js";

/** A fetch that loses the connection stream's first event: its response ends right there. */
function losingFirstEvent(): typeof globalThis.fetch {
  let lost = false;
  return async (input, init) => {
    const response = await globalThis.fetch(input, init);
    const connectionStream = init?.method === "GET" && !new Headers(init.headers).has(ACP_SESSION_ID_HEADER);
    if (!connectionStream || lost || !response.body) return response;
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        if (!new TextDecoder().decode(value).includes("id:")) return controller.enqueue(value);
        lost = true;
        await reader.cancel();
        controller.close();
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
}

it("a gap on the connection stream ends the connection (details.reason: replay_gap)", async () => {
  // A window too small to keep any event: the lost one cannot be sent again.
  const server = await startAgentServer({ replayWindowBytes: 1 });
  const gaps: ReplayGap[] = [];
  const transport = await connectHttp(server.url, {
    fetch: losingFirstEvent(),
    reconnect: { initialMs: 5, maxMs: 10 },
    onReplayGap: (gap) => gaps.push(gap),
  });
  const client = await connectClient(transport);
  // Its answer was the lost event.
  const refused = await client.newSession({ cwd: "/w" }).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(ConnectionError);
  expect(await client.closed).toMatchObject({ details: { reason: "replay_gap" } });
  expect(gaps).toEqual([{ sessionId: undefined }]);
});
