import fc from "fast-check";
import { ajvAccepts, ajvErrors } from "./corpus/support/ajv-oracle.ts";
import { decoderFor } from "./corpus/support/decoders-by-def.ts";
import { arbitraryForDef, mutated } from "./corpus/support/schema-arbitrary.ts";
import { defNames } from "./corpus/support/schema.ts";
let bad = 0;
for (const def of defNames) {
  const t0 = Date.now();
  const { decode, validate } = decoderFor(def);
  const xs = fc.sample(arbitraryForDef(def), 20);
  const t1 = Date.now();
  for (const x of xs) { if (!ajvAccepts(def, x)) { if (bad++ < 15) console.log("GEN-INVALID", def, ajvErrors(def, x), JSON.stringify(x).slice(0, 300)); continue; }
    const r = validate(x); if (!r.ok) { if (bad++ < 15) console.log("OURS-REJECT", def, JSON.stringify(r), JSON.stringify(x).slice(0, 300)); } }
  const ms = fc.sample(mutated(arbitraryForDef(def)), 20);
  for (const x of ms) { const a = ajvAccepts(def, x); const r = validate(x); if (a !== r.ok) { if (bad++ < 30) console.log("DIFF", def, a, JSON.stringify(r), a ? "" : ajvErrors(def, x), JSON.stringify(x).slice(0, 400)); } }
  const t2 = Date.now();
  if (t2 - t0 > 500) console.log("slow", def, t1 - t0, t2 - t1);
}
console.log("bad", bad);
