// The JSON-RPC core on its own: two connections over an in-memory transport pair.
// Run: tsx packages/protocol/examples/json-rpc.ts
import { Connection, createInMemoryTransportPair } from "@acp-kit/protocol/jsonrpc";

const [a, b] = createInMemoryTransportPair();
const server = new Connection(a);
server.onRequest("math/add", ({ x, y }: { x: number; y: number }) => x + y); // 2nd argument: { id, method, signal, connection }
server.listen();

const client = new Connection(b);
client.listen();
console.log(await client.request("math/add", { x: 1, y: 2 }, { signal: AbortSignal.timeout(5_000) })); // 3
await client.close();
