// The scripted sample agent as a library, served over stdio (any Transport works; once per connection).
// Run: tsx apps/sample-agent/examples/serve.ts   (it exits when its stdin closes)
import { createSampleAgent } from "@acp-kit/sample-agent";
import { stdioTransport } from "@acp-kit/transport-stdio";

const agent = createSampleAgent({ paceMs: 0, mode: "auto", model: "pirate" });
agent.serve(stdioTransport());
