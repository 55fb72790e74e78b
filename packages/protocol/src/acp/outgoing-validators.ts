// `#outgoing-validators` in every build except under the `production` condition: the strict
// validator tables. See outgoing-validation.ts.
import { validators } from "../generated/decoders.js";

export const outgoingValidators: typeof validators | undefined = validators;
