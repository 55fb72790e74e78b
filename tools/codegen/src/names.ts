/**
 * The TypeScript name of each schema `$def`. Names stay as the schema spells them, except
 * where they would shadow a global inside the generated module (`Error`).
 * Types and decoders both go through this function, so they always agree.
 */
export const RENAMED_DEFS: Readonly<Record<string, string>> = { Error: "AcpErrorObject" };

export function typeNameOf(defName: string): string {
  return RENAMED_DEFS[defName] ?? defName;
}
