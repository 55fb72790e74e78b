// Scale server process, the official SDK: `AcpServer` + its Node upgrade handler serving the v2
// `agent()` app with the prompt lifecycle written out (bench/src/full/sdk-agent.ts), streaming
// the paced chunks of paced-work.ts. The SDK has no connection cap to raise.
import { sdkPromptAgent } from "../full/sdk-agent.js";
import { startSdkWebSocketEndpoint } from "../full/sdk-ws-endpoint.js";
import { pacedChunks } from "./paced-work.js";
import { serveServerControl } from "./server-control.js";

const endpoint = await startSdkWebSocketEndpoint(sdkPromptAgent(undefined, pacedChunks));
serveServerControl(endpoint.url, () => endpoint.close());
