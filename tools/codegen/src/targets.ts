import type { RepoPaths, VersionPaths } from "./paths.ts";

/** One protocol version the generator emits: its pin, surface, output folder and runtime import. */
export interface VersionTarget extends VersionPaths {
  readonly protocolVersion: number;
  /** Import path of src/decode/index.js as seen from the generated decoders. */
  readonly decodeRuntime: string;
}

/**
 * Every version, the default (v2, `@acp-kit/protocol`) first, then v1 (`@acp-kit/protocol/v1`).
 * Both come from the same pinned package with the same rules; only the schema file differs.
 */
export function versionTargets(paths: RepoPaths): VersionTarget[] {
  return [
    {
      protocolVersion: 2,
      sourceFile: paths.sourceFile,
      surfaceFile: paths.surfaceFile,
      generatedDir: paths.generatedDir,
      decodeRuntime: "../decode/index.js",
    },
    { protocolVersion: 1, ...paths.v1, decodeRuntime: "../../decode/index.js" },
  ];
}
