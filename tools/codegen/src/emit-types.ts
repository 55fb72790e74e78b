import { compile } from "json-schema-to-typescript";
import { typeNameOf } from "./names.ts";
import { preprocessForTypes } from "./preprocess-types.ts";
import type { AcpSchema } from "./schema-source.ts";

/** Name of the throwaway root type jstt insists on emitting; it is removed from the output. */
const ROOT_NAME = "AcpKitCodegenRoot";

/** Returns the TypeScript text of every `$def` as an exported type (no header). */
export async function emitTypes(schema: AcpSchema): Promise<string> {
  const prepared = preprocessForTypes(schema);
  const root = { ...prepared, type: "object", properties: {}, additionalProperties: false };
  const text = await compile(root as never, ROOT_NAME, {
    bannerComment: "",
    additionalProperties: false,
    // Plain arrays: `minItems: 1` would otherwise produce `[T, ...T[]]` tuples, awkward to build.
    ignoreMinAndMaxItems: true,
    unreachableDefinitions: true,
    declareExternallyReferenced: true,
    strictIndexSignatures: false,
    unknownAny: true,
    format: true,
    style: { printWidth: 120, singleQuote: false, trailingComma: "all" },
    // jstt names a def reached through a `$ref` by the `$id` it derives from the ref path.
    customName: (node, keyNameFromDefinition) => {
      const defName = keyNameFromDefinition ?? (typeof node.$id === "string" ? node.$id : undefined);
      return defName === undefined ? undefined : typeNameOf(defName);
    },
  });
  return removeRootType(text);
}

/** Drops the empty root interface and jstt's "referenced by the root" notes from the JSDoc. */
function removeRootType(text: string): string {
  const pattern = new RegExp(`^export interface ${ROOT_NAME} \\{\\}\\n`, "m");
  if (!pattern.test(text))
    throw new Error(`codegen: expected the placeholder root type ${ROOT_NAME} in the jstt output`);
  return text
    .replace(pattern, "")
    .replace(
      new RegExp(
        `^( \\*\\n)? \\* This interface was referenced by \`${ROOT_NAME}\`'s JSON-Schema\\n \\* via the \`definition\` "[^"]*"\\.\\n`,
        "gm",
      ),
      "",
    )
    .replace(/^\/\*\*\n \*\/\n/gm, "");
}
