import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Absolute paths of everything the code generator reads or writes, relative to one repo root. */
export interface RepoPaths {
  readonly root: string;
  /** The `@acp-kit/schema` package: it pins the upstream SDK that ships the schema. */
  readonly schemaPackageDir: string;
  readonly sourceFile: string;
  readonly surfaceFile: string;
  readonly generatedDir: string;
  readonly schemaPackageJson: string;
  /** pnpm-workspace.yaml: its catalog pins the official SDK for every package's tests. */
  readonly workspaceFile: string;
  readonly changesetDir: string;
  /** The same pin, read for protocol version 1 (`@acp-kit/protocol/v1`). */
  readonly v1: VersionPaths;
}

/** Where one protocol version's pin, surface and generated code live. */
export interface VersionPaths {
  readonly sourceFile: string;
  readonly surfaceFile: string;
  readonly generatedDir: string;
}

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

export function repoPaths(root: string = REPO_ROOT): RepoPaths {
  return {
    root,
    schemaPackageDir: join(root, "schema"),
    sourceFile: join(root, "schema", "SOURCE.json"),
    surfaceFile: join(root, "schema", "surface.json"),
    generatedDir: join(root, "packages", "protocol", "src", "generated"),
    schemaPackageJson: join(root, "schema", "package.json"),
    workspaceFile: join(root, "pnpm-workspace.yaml"),
    changesetDir: join(root, ".changeset"),
    v1: {
      sourceFile: join(root, "schema", "SOURCE.v1.json"),
      surfaceFile: join(root, "schema", "surface.v1.json"),
      generatedDir: join(root, "packages", "protocol", "src", "generated", "v1"),
    },
  };
}
