import { loadCorpus, defOf } from "./corpus/support/corpus.ts";
import { sdkSchemaFor } from "./corpus/support/sdk-zod.ts";
for (const c of loadCorpus().filter((c) => c.expect !== "repaired")) {
  const def = defOf(c);
  let r;
  try { r = sdkSchemaFor(def).safeParse(structuredClone(c.value)); } catch (e) { console.log("NOSCHEMA", def); continue; }
  const sdkOk = r.success;
  const oursOk = c.expect === "valid";
  if (sdkOk !== oursOk) console.log("DIFF", c.file, c.name, "sdk:", sdkOk, sdkOk ? "" : JSON.stringify((r as any).error.issues).slice(0, 200));
}
