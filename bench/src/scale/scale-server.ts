// Starting a scale server process (server-ours.ts or server-sdk.ts) and its load generators.
import { type Driven, drive } from "./control.js";

export type ScaleStack = "ours" | "sdk";

export type ScaleTransport = "ws" | "http";

/**
 * What the scale servers of this case process serve: Streamable HTTP when
 * `BENCH_SCALE_TRANSPORT=http` (the scale-http-* cases set it and run their WebSocket case's
 * script, one home for each measurement), else WebSocket. The load clients follow the server's URL.
 */
export function scaleTransport(): ScaleTransport {
  return process.env.BENCH_SCALE_TRANSPORT === "http" ? "http" : "ws";
}

export interface ScaleServer extends Driven {
  url: string;
}

/**
 * Starts the server of `stack` over `scaleTransport()`. `--capped`: our server with the default caps of docs/limits.md (the edge case); `maxFiles`: its
 * file descriptor limit.
 */
export async function startScaleServer(
  stack: ScaleStack,
  args: string[] = [],
  maxFiles?: number,
): Promise<ScaleServer> {
  // For profiling a figure: BENCH_SCALE_PROFILE_DIR=<dir> writes each server's CPU profile there.
  const profile = process.env.BENCH_SCALE_PROFILE_DIR
    ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_SCALE_PROFILE_DIR}`]
    : [];
  const transport = scaleTransport() === "http" ? ["--http"] : [];
  const driven = drive(`./server-${stack}.ts`, [...transport, ...args], ["--expose-gc", ...profile], maxFiles);
  await driven.ready;
  const url = await driven.call<string>("url");
  return Object.assign(driven, { url });
}

export async function startLoad(): Promise<Driven> {
  const driven = drive("./load.ts");
  await driven.ready;
  return driven;
}
