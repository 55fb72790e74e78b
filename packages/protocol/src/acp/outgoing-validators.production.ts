// `#outgoing-validators` under the `production` condition (Vite and webpack production builds):
// no validators, so the bundler can drop the tables. See outgoing-validation.ts.
import type { validators } from "../generated/decoders.js";

export const outgoingValidators: typeof validators | undefined = undefined;
