// Case scale-http-stream: scale-stream (./scale-stream.ts, the one home of that measurement) over
// Streamable HTTP: 1,000 raw clients (two load processes of 500), each with its connection's and
// its session's SSE streams open, all prompted at once (POSTs); each turn's 200 chunks come back as
// events of the session's stream. The servers run with `--http` (server-ours.ts, server-sdk.ts).
process.env.BENCH_SCALE_TRANSPORT = "http";
await import("./scale-stream.js");
