// Record a connection's wire traffic as a JSONL transcript (the format `acp-kit record` writes and
// `acp-kit replay` reads), then read it back.
// Run: tsx packages/protocol/examples/transcript.ts
import { createAgentSideConnection, createClientSideConnection, PROTOCOL_VERSION } from "@acp-kit/protocol";
import { createInMemoryTransportPair } from "@acp-kit/protocol/jsonrpc";
import { parseTranscript, TranscriptWriter } from "@acp-kit/protocol/tap";

const [agentSide, clientSide] = createInMemoryTransportPair();
const agent = createAgentSideConnection(agentSide);
agent.onRequest("initialize", ({ protocolVersion }) => ({
  protocolVersion,
  info: { name: "tiny-agent", version: "1.0.0" },
  capabilities: {},
}));
agent.listen();

const lines: string[] = []; // or a file: (line) => stream.write(`${line}\n`)
const writer = new TranscriptWriter({ write: (line) => lines.push(line), side: "client" });
const conn = createClientSideConnection(clientSide, { tap: writer.tap });
// A tap can also be a function: { tap: (e) => console.log(e.direction, e.method, e.bytes, e.durationMs) }
conn.listen();
await conn.request("initialize", { protocolVersion: PROTOCOL_VERSION, info: { name: "my-editor", version: "1.0.0" } });
await conn.close();

const { entries } = parseTranscript(lines.join("\n")); // a TranscriptError names the bad line
for (const entry of entries) {
  const msg = entry.msg as { method?: string; result?: unknown };
  console.log(
    `${entry.from}: ${msg.method ?? (msg.result !== undefined ? "result" : "?")}${entry.ms !== undefined ? " (timed)" : ""}`,
  );
}
