// The agent process: a JSON-RPC peer on its own stdin/stdout. `stdioTransport()` guards stdout
// (a stray console.log goes to stderr instead of corrupting the stream).
import { Connection } from "@acp-kit/protocol/jsonrpc";
import { stdioTransport } from "@acp-kit/transport-stdio";

const connection = new Connection(stdioTransport());
connection.onRequest("demo/ping", () => "pong");
connection.listen();
