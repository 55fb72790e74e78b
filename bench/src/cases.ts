// Every case `pnpm bench` runs, in order. To add one: write its script in ./cases/ (one side per
// process: `<script> <side> [--quick]` prints one JSON line of figures; see ./cases/side.ts) and
// register it here with the rows it yields.
import type { CaseSpec } from "./runner/case-spec.js";

const stdioTurn: CaseSpec = {
  name: "stdio-turn",
  title: "One prompt turn of 50,000 agent_message_chunk updates over stdio, full stacks",
  what: [
    "ours: `defineAgent` + `stdioTransport()` agent; `spawnAgent` + `connectToAgent` client, `session.prompt()` and iterating the turn's updates to its idle.",
    "sdk: the SDK's v2 `agent()` app with the prompt lifecycle written out, over `ndJsonStream` on the process's stdio; `client()` + `buildSession().start()` + `ActiveSession.prompt()` and `nextUpdate()` until the idle `stop`.",
    "raw-64k (the floor): no library; the agent `JSON.stringify`s each message and joins lines into ~64 KiB writes without yielding, the client splits lines and `JSON.parse`s each.",
    "raw-line: the same with one write per line. Each side runs a 5,000-chunk warm-up turn first.",
    "bare (a layer): our bare JSON-RPC `Connection` on both ends, the chunks as plain notifications answering one request: no decoding, no turn engine, store or turn handle.",
  ],
  script: "stdio-turn.ts",
  sides: ["ours", "sdk", "raw-64k", "raw-line", "bare"],
  rows: [
    { label: "throughput vs SDK", unit: "msg/s", better: "higher", ours: { side: "ours", figure: "msgPerSec" }, theirs: { side: "sdk", figure: "msgPerSec" }, target: 5 },
    { label: "throughput vs raw floor (64 KiB writes)", unit: "msg/s", better: "higher", ours: { side: "ours", figure: "msgPerSec" }, theirs: { side: "raw-64k", figure: "msgPerSec" }, target: 0.6 },
    { label: "throughput vs raw, one write per line", unit: "msg/s", better: "higher", ours: { side: "ours", figure: "msgPerSec" }, theirs: { side: "raw-line", figure: "msgPerSec" }, target: 1.5 },
    { label: "bare Connection vs raw floor", unit: "msg/s", better: "higher", layer: true, ours: { side: "bare", figure: "msgPerSec" }, theirs: { side: "raw-64k", figure: "msgPerSec" } },
    { label: "client peak RSS vs SDK", unit: "MiB", better: "lower", ours: { side: "ours", figure: "clientPeakRssMiB" }, theirs: { side: "sdk", figure: "clientPeakRssMiB" } },
    { label: "agent peak RSS vs SDK", unit: "MiB", better: "lower", ours: { side: "ours", figure: "agentPeakRssMiB" }, theirs: { side: "sdk", figure: "agentPeakRssMiB" } },
  ],
};

export const CASES: readonly CaseSpec[] = [stdioTurn];
