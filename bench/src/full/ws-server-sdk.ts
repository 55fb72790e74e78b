// Benchmark server process: the official SDK over WebSocket (`AcpServer` + its Node upgrade
// handler, each connection served by the v2 agent app with the lifecycle written out).
import { sdkPromptAgent } from "./sdk-agent.js";
import { startSdkWebSocketEndpoint } from "./sdk-ws-endpoint.js";
import { serveUntilStdinEnds } from "./ws-serve.js";

const endpoint = await startSdkWebSocketEndpoint(sdkPromptAgent());
serveUntilStdinEnds(endpoint.url, () => endpoint.close());
