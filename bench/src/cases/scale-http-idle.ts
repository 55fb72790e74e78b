// Case scale-http-idle: scale-idle (./scale-idle.ts, the one home of that measurement) over
// Streamable HTTP: 3,000 raw clients (one load process, 50 handshakes in flight), each
// `initialize`d (a POST) with its connection's SSE stream open, one session opened and its SSE
// stream open, then idle. The servers run with `--http` (server-ours.ts, server-sdk.ts).
process.env.BENCH_SCALE_TRANSPORT = "http";
await import("./scale-idle.js");
