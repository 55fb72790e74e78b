import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { repoPaths } from "./paths.ts";

/** The JSON schema as parsed from disk: a draft 2020-12 document with `$defs`. */
export interface AcpSchema {
  readonly $defs: Record<string, Record<string, unknown>>;
  readonly [key: string]: unknown;
}

/** Contents of `schema/SOURCE.json`: which upstream file is pinned and its expected sha256. */
export interface SchemaSourceRecord {
  readonly package: string;
  readonly version: string;
  /** Path of the schema inside the upstream package, e.g. `schema/v2/schema.json`. */
  readonly file: string;
  readonly sha256: string;
}

export interface PinnedSchema {
  readonly schema: AcpSchema;
  readonly source: SchemaSourceRecord;
  /** Absolute path the schema was read from. */
  readonly path: string;
  /** Raw bytes as read, for hashing and diagnostics. */
  readonly text: string;
}

export interface LoadPinnedSchemaOptions {
  /** Directory of the `@acp-kit/schema` package (module resolution starts there). */
  readonly schemaPackageDir?: string;
  /** Path of SOURCE.json; defaults to `<schemaPackageDir>/SOURCE.json`. */
  readonly sourceFile?: string;
}

export class SchemaHashMismatchError extends Error {
  override readonly name = "SchemaHashMismatchError";
  constructor(
    readonly path: string,
    readonly expected: string,
    readonly actual: string,
    readonly sourceFile: string,
  ) {
    super(
      `Schema hash mismatch for ${path}\n  expected sha256 ${expected} (from ${sourceFile})\n  actual   sha256 ${actual}\n` +
        "The installed schema is not the pinned one. Run `pnpm install`, or `pnpm schema:bump <version>` to move the pin.",
    );
  }
}

export function sha256Hex(text: string | Uint8Array): string {
  return createHash("sha256").update(text).digest("hex");
}

export function readSourceRecord(sourceFile: string): SchemaSourceRecord {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(sourceFile, "utf8"));
  } catch (cause) {
    throw new Error(`Cannot read schema source record ${sourceFile}: ${(cause as Error).message}`, { cause });
  }
  const record = parsed as Partial<SchemaSourceRecord> | null;
  for (const key of ["package", "version", "file", "sha256"] as const) {
    if (typeof record?.[key] !== "string" || record[key] === "") {
      throw new Error(`Schema source record ${sourceFile} lacks a string "${key}"`);
    }
  }
  return record as SchemaSourceRecord;
}

/** Resolves the schema file of the pinned package from the schema package directory. */
export function resolveSchemaPath(source: SchemaSourceRecord, schemaPackageDir: string): string {
  const require = createRequire(join(schemaPackageDir, "package.json"));
  try {
    return require.resolve(`${source.package}/${source.file}`);
  } catch (cause) {
    throw new Error(
      `Cannot resolve ${source.package}/${source.file} from ${schemaPackageDir}: is ${source.package}@${source.version} installed (pnpm install)?`,
      { cause },
    );
  }
}

/**
 * Loads the upstream ACP schema pinned by `schema/SOURCE.json` and verifies its sha256.
 * Throws `SchemaHashMismatchError` (naming the file, the expected and the actual hash) when
 * the installed file is not the pinned one.
 */
export function loadPinnedSchema(options: LoadPinnedSchemaOptions = {}): PinnedSchema {
  const schemaPackageDir = options.schemaPackageDir ?? repoPaths().schemaPackageDir;
  const sourceFile = options.sourceFile ?? join(schemaPackageDir, "SOURCE.json");
  const source = readSourceRecord(sourceFile);
  const path = resolveSchemaPath(source, schemaPackageDir);
  const bytes = readFileSync(path);
  const actual = sha256Hex(bytes);
  if (actual !== source.sha256.toLowerCase()) {
    throw new SchemaHashMismatchError(path, source.sha256, actual, sourceFile);
  }
  const text = bytes.toString("utf8");
  const schema = JSON.parse(text) as AcpSchema;
  if (typeof schema !== "object" || schema === null || typeof schema.$defs !== "object") {
    throw new Error(`${path} is not a JSON schema with $defs`);
  }
  return { schema, source, path, text };
}
