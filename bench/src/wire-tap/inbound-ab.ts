// In-process A/B of the inbound path: two Connection classes (e.g. this tree's and an older
// copy's) each receive the same N session/update payloads from a fake transport, alternating,
// many rounds; prints the median time per payload of each and the ratio. Less noisy than the
// process-level stream benchmark, and it isolates the code the tap hooks into.
//   tsx src/wire-tap/inbound-ab.ts <A protocol jsonrpc index.ts> <B protocol jsonrpc index.ts> [N] [rounds]
import { pathToFileURL } from "node:url";
import { chunkUpdate } from "./support/stream-workload.js";

type Sink = { message(payload: string): unknown; closed(error?: Error): void };
type ConnectionClass = new (
  transport: unknown,
  options?: unknown,
) => {
  onNotification(method: string, handler: () => void): unknown;
  listen(): void;
};

const [aPath, bPath, nArg, roundsArg] = process.argv.slice(2) as [string, string, string?, string?];
const n = Number(nArg ?? 200_000);
const rounds = Number(roundsArg ?? 21);
const A = ((await import(pathToFileURL(aPath).href)) as { Connection: ConnectionClass }).Connection;
const B = ((await import(pathToFileURL(bPath).href)) as { Connection: ConnectionClass }).Connection;
const payloads = Array.from({ length: 1000 }, (_, i) =>
  JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: chunkUpdate(i) }),
);

function run(Class: ConnectionClass, options?: unknown): number {
  let sink: Sink | undefined;
  const transport = { start: (s: Sink) => (sink = s), send: () => {}, close: async () => {} };
  const connection = new Class(transport, options);
  let received = 0;
  connection.onNotification("session/update", () => {
    received++;
  });
  connection.listen();
  const started = performance.now();
  for (let i = 0; i < n; i++) sink?.message(payloads[i % payloads.length] as string);
  const elapsed = performance.now() - started;
  if (received !== n) throw new Error(`received ${received} of ${n}`);
  return (elapsed * 1e6) / n; // ns per payload
}

const median = (v: number[]) => [...v].sort((x, y) => x - y)[Math.floor(v.length / 2)] as number;
const a: number[] = [];
const b: number[] = [];
const bTapped: number[] = [];
run(A);
run(B);
for (let r = 0; r < rounds; r++) {
  if (r % 2 === 0) {
    a.push(run(A));
    b.push(run(B));
  } else {
    b.push(run(B));
    a.push(run(A));
  }
  bTapped.push(run(B, { tap: () => {} }));
}
const ma = median(a);
const mb = median(b);
console.log(`A ${ma.toFixed(0)} ns/payload (${Math.min(...a).toFixed(0)}-${Math.max(...a).toFixed(0)})`);
console.log(`B ${mb.toFixed(0)} ns/payload (${Math.min(...b).toFixed(0)}-${Math.max(...b).toFixed(0)})`);
console.log(`B with a no-op tap ${median(bTapped).toFixed(0)} ns/payload`);
console.log(`B / A time: ${(mb / ma).toFixed(3)} (overhead ${((mb / ma - 1) * 100).toFixed(2)} %)`);
