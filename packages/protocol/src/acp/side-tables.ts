/**
 * The generated decoders and the capability table, seen from one side: keyed by the methods
 * that side handles or sends and typed by them, so the typed connection reads a decoded value
 * as its method's type without asserting it. Each view is one checked assignment of the tables
 * of its side.
 *
 * Each side reads only its own generated table (`agentSideDecoders` / `clientStartDecoders`):
 * `agentSideTables` and `clientSideTables` share nothing that references both, so a bundle
 * that builds only one side's connection keeps only that side's decoders. The client loads the
 * decoders of `clientDeferredDecoders` (`elicitation/create`) on first use, or as soon as it
 * advertises what they need (`prepare`).
 */
import type { DecodeResult } from "../decode/index.js";
import * as start from "../generated/client-decoders.js";
import * as generated from "../generated/decoders.js";
import type * as deferred from "../generated/deferred-decoders.js";
import type { ClientCapabilities } from "../generated/types.js";
import type { NotificationEncoder } from "../jsonrpc/connection-types.js";
import { type Advertised, isAdvertised } from "./advertised.js";
import { REQUIREMENTS } from "./capabilities.js";
import { encodeTextChunk } from "./chunk-encoding.js";
import { readInitializeParams } from "./initialize.js";
import type { MissingCapability } from "./missing-capability.js";
import type { AcpSide, HandledNotifications, HandledRequests, SentRequests } from "./sides.js";

type Table<Part extends string> = Readonly<Record<string, { readonly [P in Part]: unknown }>>;

/** A decoder of each method's params. */
export type ParamsDecoders<T extends Table<"params">> = {
  readonly [M in keyof T]: { readonly params: (value: unknown) => DecodeResult<T[M]["params"]> };
};
/** A decoder of each handled request's params, or a loader of it for what is decoded only once used. */
export type HandledRequestDecoders<T extends Table<"params">> = {
  readonly [M in keyof T]:
    | { readonly params: (value: unknown) => DecodeResult<T[M]["params"]> }
    | { readonly load: () => Promise<(value: unknown) => DecodeResult<T[M]["params"]>> };
};
/** A decoder of each request's result. */
export type ResultDecoders<T extends Table<"result">> = {
  readonly [M in keyof T]: { readonly result: (value: unknown) => DecodeResult<T[M]["result"]> };
};
/** The capability requirement of each request that has one. */
export type Requirements<T extends Table<"params">> = {
  readonly [M in keyof T]?: (params: T[M]["params"], advertised: Advertised) => MissingCapability | undefined;
};

export interface SideTables<S extends AcpSide> {
  /** The side these tables are for. */
  readonly side: S;
  readonly handledRequests: HandledRequestDecoders<HandledRequests<S>>;
  readonly handledNotifications: ParamsDecoders<HandledNotifications<S>>;
  readonly sentRequests: ResultDecoders<SentRequests<S>>;
  readonly handledRequirements: Requirements<HandledRequests<S>>;
  readonly sentRequirements: Requirements<SentRequests<S>>;
  /**
   * The params of each request this side sends, read as the peer reads them: `assertSendable`
   * checks untyped params against the capability requirements through these. They are the
   * peer's decoders, so they are not in this side's generated table; each is named here by its
   * type (a per-type decoder keeps only itself), checked complete by `ParamsDecoders`.
   */
  readonly sentParams: ParamsDecoders<SentRequests<S>>;
  /** Called with the capabilities this side advertises in `initialize`: loads the deferred decoders they call for. */
  readonly prepare?: (capabilities: ClientCapabilities) => void;
  /** The fast serializer of what this side sends most (the agent's text chunks; see `chunk-encoding.ts`). */
  readonly encodeNotification?: NotificationEncoder;
}

const MISSING = "No generated decoders: run the protocol codegen";

let agentTables: SideTables<"agent"> | undefined;
let clientTables: SideTables<"client"> | undefined;

/** The agent's tables. Throws when the generated decoders are missing (a build in progress). */
export function agentSideTables(): SideTables<"agent"> {
  if (agentTables !== undefined) return agentTables;
  // Read through the namespace (not a named import) so this module links even while the
  // generated file is being regenerated; a missing table is reported when a connection is made.
  const table: typeof generated.agentSideDecoders | undefined = generated.agentSideDecoders;
  if (table === undefined) throw new Error(MISSING);
  agentTables = {
    side: "agent",
    // The agent reads a newer client's initialize leniently (initialize.ts).
    handledRequests: { ...table, initialize: { params: readInitializeParams } },
    handledNotifications: table,
    sentRequests: table,
    sentParams: {
      "elicitation/create": { params: generated.decodeCreateElicitationRequest },
      "session/request_permission": { params: generated.decodeRequestPermissionRequest },
    },
    handledRequirements: REQUIREMENTS,
    sentRequirements: REQUIREMENTS,
    encodeNotification: encodeTextChunk,
  };
  return agentTables;
}

/** The client's tables. Throws when the generated decoders are missing (a build in progress). */
export function clientSideTables(): SideTables<"client"> {
  if (clientTables !== undefined) return clientTables;
  const table: typeof start.clientStartDecoders | undefined = start.clientStartDecoders;
  if (table === undefined) throw new Error(MISSING);
  clientTables = {
    side: "client",
    handledRequests: { ...table, "elicitation/create": { load: loadElicitationDecoder } },
    handledNotifications: table,
    sentRequests: table,
    sentParams: {
      "auth/login": { params: generated.decodeLoginAuthRequest },
      "auth/logout": { params: generated.decodeLogoutAuthRequest },
      initialize: { params: generated.decodeInitializeRequest },
      "session/close": { params: generated.decodeCloseSessionRequest },
      "session/delete": { params: generated.decodeDeleteSessionRequest },
      "session/list": { params: generated.decodeListSessionsRequest },
      "session/new": { params: generated.decodeNewSessionRequest },
      "session/prompt": { params: generated.decodePromptRequest },
      "session/resume": { params: generated.decodeResumeSessionRequest },
      "session/set_config_option": { params: generated.decodeSetSessionConfigOptionRequest },
      "terminal/cancel": { params: generated.decodeCancelTerminalRequest },
      "tool_call/cancel": { params: generated.decodeCancelToolCallRequest },
    },
    handledRequirements: REQUIREMENTS,
    sentRequirements: REQUIREMENTS,
    // A client that advertises elicitation will be asked: its decoder is there before the first request.
    prepare: (capabilities) => {
      if (isAdvertised(capabilities.elicitation)) loadElicitationDecoder().catch(() => undefined);
    },
  };
  return clientTables;
}

type ElicitationDecoder = (typeof deferred.clientDeferredDecoders)["elicitation/create"]["params"];
let elicitationDecoder: Promise<ElicitationDecoder> | undefined;

/** The deferred `elicitation/create` decoder, loaded once (a failed load is tried again next time). */
function loadElicitationDecoder(): Promise<ElicitationDecoder> {
  elicitationDecoder ??= import("../generated/deferred-decoders.js").then(
    (module) => module.clientDeferredDecoders["elicitation/create"].params,
    (error: unknown) => {
      elicitationDecoder = undefined;
      throw error;
    },
  );
  return elicitationDecoder;
}
