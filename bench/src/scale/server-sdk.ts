// Scale server process, the official SDK: `AcpServer` + its Node upgrade handler (with `--http`:
// its Node `http` adapter, Streamable HTTP) serving the v2 `agent()` app with the prompt
// lifecycle written out (bench/src/full/sdk-agent.ts), streaming the paced chunks of
// paced-work.ts. The SDK has no connection cap to raise; its per-connection limits are above the
// cases' load as they are.
import { sdkPromptAgent } from "../full/sdk-agent.js";
import { startSdkHttpEndpoint } from "../full/sdk-http-endpoint.js";
import { startSdkWebSocketEndpoint } from "../full/sdk-ws-endpoint.js";
import { pacedChunks } from "./paced-work.js";
import { overHttp, serveServerControl } from "./server-control.js";

const app = sdkPromptAgent(undefined, pacedChunks);
const endpoint = overHttp ? await startSdkHttpEndpoint(app) : await startSdkWebSocketEndpoint(app);
serveServerControl(endpoint.url, () => endpoint.close());
