/**
 * The generated decoders and the capability table, seen from one side: keyed by the methods
 * that side handles or sends and typed by them, so the typed connection reads a decoded value
 * as its method's type without asserting it. Each view is one checked assignment of the tables
 * per side; indexing the views by the connection's side type keeps the method types attached.
 */
import type { DecodeResult } from "../decode/index.js";
import * as generated from "../generated/decoders.js";
import type { Advertised } from "./advertised.js";
import { REQUIREMENTS } from "./capabilities.js";
import { readInitializeParams } from "./initialize.js";
import type { MissingCapability } from "./missing-capability.js";
import type { AcpSide, HandledNotifications, HandledRequests, SentRequests } from "./sides.js";

type Table<Part extends string> = Readonly<Record<string, { readonly [P in Part]: unknown }>>;

/** A decoder of each method's params. */
export type ParamsDecoders<T extends Table<"params">> = {
  readonly [M in keyof T]: { readonly params: (value: unknown) => DecodeResult<T[M]["params"]> };
};
/** A decoder of each request's params and result. */
export type RequestDecoders<T extends Table<"params" | "result">> = {
  readonly [M in keyof T]: {
    readonly params: (value: unknown) => DecodeResult<T[M]["params"]>;
    readonly result: (value: unknown) => DecodeResult<T[M]["result"]>;
  };
};
/** The capability requirement of each request that has one. */
export type Requirements<T extends Table<"params">> = {
  readonly [M in keyof T]?: (params: T[M]["params"], advertised: Advertised) => MissingCapability | undefined;
};

export interface SideTables<S extends AcpSide> {
  readonly handledRequests: ParamsDecoders<HandledRequests<S>>;
  readonly handledNotifications: ParamsDecoders<HandledNotifications<S>>;
  readonly sentRequests: RequestDecoders<SentRequests<S>>;
  readonly handledRequirements: Requirements<HandledRequests<S>>;
  readonly sentRequirements: Requirements<SentRequests<S>>;
}

// Read through the namespace so this module links even while the generated file is being
// regenerated (see codecs.ts); a missing table is reported when a method is first used.
const decoders: typeof generated.decoders | undefined = generated.decoders;

function tablesBySide(table: typeof generated.decoders): { readonly [S in AcpSide]: SideTables<S> } {
  return {
    agent: {
      // The agent reads a newer client's initialize leniently (initialize.ts).
      handledRequests: { ...table, initialize: { params: readInitializeParams } },
      handledNotifications: table,
      sentRequests: table,
      handledRequirements: REQUIREMENTS,
      sentRequirements: REQUIREMENTS,
    },
    client: {
      handledRequests: table,
      handledNotifications: table,
      sentRequests: table,
      handledRequirements: REQUIREMENTS,
      sentRequirements: REQUIREMENTS,
    },
  };
}

const bySide = decoders === undefined ? undefined : tablesBySide(decoders);

/** The tables of `side`. Throws when the generated decoders are missing (a build in progress). */
export function tablesOf<S extends AcpSide>(side: S): SideTables<S> {
  if (bySide === undefined) throw new Error("No generated decoders: run the protocol codegen");
  return bySide[side];
}
