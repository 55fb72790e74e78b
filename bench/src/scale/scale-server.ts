// Starting a scale server process (server-ours.ts or server-sdk.ts) and its load generators.
import { type Driven, drive } from "./control.js";

export type ScaleStack = "ours" | "sdk";

export interface ScaleServer extends Driven {
  url: string;
}

/**
 * `--capped`: our server with the default caps of docs/limits.md (the edge case); `maxFiles`: its
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
  const driven = drive(`./server-${stack}.ts`, args, ["--expose-gc", ...profile], maxFiles);
  await driven.ready;
  const url = await driven.call<string>("url");
  return Object.assign(driven, { url });
}

export async function startLoad(): Promise<Driven> {
  const driven = drive("./load.ts");
  await driven.ready;
  return driven;
}
