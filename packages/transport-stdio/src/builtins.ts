/**
 * Node's `fs` and `child_process`, fetched when first used rather than imported. An ES import
 * of either loads Node's stream machinery (and for `child_process` also net and dgram) as
 * soon as `@acp-kit/transport-stdio` is imported: an agent serving on stdio never needs
 * `child_process` at all, and a client needs both only once it spawns an agent.
 */
export function childProcess(): typeof import("node:child_process") {
  return process.getBuiltinModule("node:child_process");
}

export function fileSystem(): typeof import("node:fs") {
  return process.getBuiltinModule("node:fs");
}
