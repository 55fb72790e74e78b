// Decoders repair what the schema says to repair and report the rest with a JSON path.
// Run: tsx packages/protocol/examples/decode.ts
import { decodeSessionUpdate } from "@acp-kit/protocol/decoders";

const wire = [
  '{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":"text","text":"Hi"}}',
  '{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":42}}',
];
for (const text of wire) {
  const r = decodeSessionUpdate(JSON.parse(text));
  if (r.ok) console.log("decoded", r.value.sessionUpdate);
  else console.log(`rejected at ${r.error.path}: ${r.error.message}`);
}
