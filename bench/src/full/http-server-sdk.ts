// Benchmark server process: the official SDK over Streamable HTTP (`AcpServer` behind its Node
// `http` adapter, each connection served by the v2 agent app with the lifecycle written out).
import { sdkPromptAgent } from "./sdk-agent.js";
import { startSdkHttpEndpoint } from "./sdk-http-endpoint.js";
import { keepIdleSockets, serveUntilStdinEnds } from "./ws-serve.js";

const endpoint = await startSdkHttpEndpoint(sdkPromptAgent());
keepIdleSockets(endpoint.http);
serveUntilStdinEnds(endpoint.url, () => endpoint.close());
