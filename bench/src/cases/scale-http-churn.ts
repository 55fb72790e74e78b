// Case scale-http-churn: scale-churn (./scale-churn.ts, the one home of that measurement) over
// Streamable HTTP: 32 raw clients at a time each loop: `initialize` (a POST), the connection's
// SSE stream, `session/new`, the session's stream, a one-chunk turn, `DELETE`, and the streams'
// sockets closed (waited for). The servers run with `--http` (server-ours.ts, server-sdk.ts).
process.env.BENCH_SCALE_TRANSPORT = "http";
await import("./scale-churn.js");
