// Cookies set by the server come back on every later request of the connection (affinity).
import { expect, it } from "vitest";
import { connectHttp } from "../src/index.js";
import { connectClient, startAgentServer } from "./support.js";

it("connectHttp returns the server's cookies on each request of the connection", async () => {
  const server = await startAgentServer({
    initializeHeaders: () => ({ "Set-Cookie": "acp_node=a; Path=/; HttpOnly" }),
  });
  const seen: (string | null)[] = [];
  const recording: typeof fetch = (url, init) => {
    seen.push(new Headers(init?.headers).get("cookie"));
    return fetch(url, init);
  };
  const client = await connectClient(await connectHttp(server.url, { fetch: recording }));
  const session = await client.newSession({ cwd: "/w" });
  expect(await session.prompt("count 2").done).toEqual({ stopReason: "end_turn" });
  // The initialize POST had none; every request after it carries the cookie.
  expect(seen[0]).toBeNull();
  expect(seen.length).toBeGreaterThan(3);
  expect(seen.slice(1).every((cookie) => cookie === "acp_node=a")).toBe(true);
});
