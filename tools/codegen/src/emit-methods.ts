import type { MethodGroup, MethodSpec } from "./method-model.ts";

/** The protocol version this code generator targets; the schema file must be the matching one. */
export const TARGET_PROTOCOL_VERSION = 2;

const GROUPS: readonly { group: MethodGroup; constName: string; methodType: string; doc: string }[] = [
  {
    group: "AgentRequests",
    constName: "AGENT_REQUEST_METHODS",
    methodType: "AgentRequestMethod",
    doc: "Requests the agent handles (the client sends them).",
  },
  {
    group: "ClientRequests",
    constName: "CLIENT_REQUEST_METHODS",
    methodType: "ClientRequestMethod",
    doc: "Requests the client handles (the agent sends them).",
  },
  {
    group: "AgentNotifications",
    constName: "AGENT_NOTIFICATION_METHODS",
    methodType: "AgentNotificationMethod",
    doc: "Notifications the agent handles (the client sends them).",
  },
  {
    group: "ClientNotifications",
    constName: "CLIENT_NOTIFICATION_METHODS",
    methodType: "ClientNotificationMethod",
    doc: "Notifications the client handles (the agent sends them).",
  },
  {
    group: "ProtocolNotifications",
    constName: "PROTOCOL_NOTIFICATION_METHODS",
    methodType: "ProtocolNotificationMethod",
    doc: "Notifications either side may send and handle.",
  },
];

const q = (s: string): string => JSON.stringify(s);

/** Returns the text of generated/methods.ts (no header) for the given methods of `protocolVersion`. */
export function emitMethods(methods: readonly MethodSpec[], protocolVersion: number = TARGET_PROTOCOL_VERSION): string {
  const typeNames = [
    ...new Set(methods.flatMap((m) => (m.result === undefined ? [m.params] : [m.params, m.result]))),
  ].sort();
  const out: string[] = [];
  out.push(`import type { ${typeNames.join(", ")} } from "./types.js";`, "");
  out.push(
    "/** The ACP protocol version these tables describe. */",
    `export const PROTOCOL_VERSION = ${protocolVersion};`,
    "/** Protocol versions this package can speak. */",
    `export const SUPPORTED_PROTOCOL_VERSIONS = [${protocolVersion}] as const;`,
    "export type SupportedProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];",
    "",
    '/** Which side handles a method: `"both"` for protocol-level methods either side may receive. */',
    'export type MethodHandler = "agent" | "client" | "both";',
    'export type MethodKind = "request" | "notification";',
    "",
    "/** Runtime description of one method. `params`/`result` are names of types in ./types.js. */",
    "export interface MethodInfo {",
    "  readonly method: string;",
    "  readonly handledBy: MethodHandler;",
    "  readonly kind: MethodKind;",
    "  readonly params: string;",
    "  readonly result?: string;",
    "}",
    "",
  );
  for (const { group, doc } of GROUPS) {
    const members = methods.filter((m) => m.group === group);
    const isRequest = group.endsWith("Requests");
    out.push(`/** ${doc} Keyed by wire method name. */`, `export type ${group} = {`);
    for (const m of members) {
      out.push(
        isRequest
          ? `  ${q(m.method)}: { params: ${m.params}; result: ${m.result} };`
          : `  ${q(m.method)}: { params: ${m.params} };`,
      );
    }
    out.push("};", "");
  }
  for (const { group, methodType } of GROUPS) out.push(`export type ${methodType} = keyof ${group};`);
  out.push(
    "export type RequestMethod = AgentRequestMethod | ClientRequestMethod;",
    "export type NotificationMethod = AgentNotificationMethod | ClientNotificationMethod | ProtocolNotificationMethod;",
    "export type Method = RequestMethod | NotificationMethod;",
    "",
    "/** Every request, whichever side handles it. */",
    "export type AllRequests = AgentRequests & ClientRequests;",
    "/** Every notification, whichever side handles it. */",
    "export type AllNotifications = AgentNotifications & ClientNotifications & ProtocolNotifications;",
    'export type RequestParams<M extends RequestMethod> = AllRequests[M]["params"];',
    'export type RequestResult<M extends RequestMethod> = AllRequests[M]["result"];',
    'export type NotificationParams<M extends NotificationMethod> = AllNotifications[M]["params"];',
    "",
  );
  for (const { group, constName, methodType } of GROUPS) {
    const names = methods.filter((m) => m.group === group).map((m) => q(m.method));
    out.push(`export const ${constName} = [${names.join(", ")}] as const satisfies readonly ${methodType}[];`);
  }
  out.push("");
  out.push("/** Every method, keyed by wire method name. */", "export const METHODS = {");
  for (const m of methods) {
    const result = m.result === undefined ? "" : `, result: ${q(m.result)}`;
    out.push(
      `  ${q(m.method)}: { method: ${q(m.method)}, handledBy: ${q(m.handledBy)}, kind: ${q(m.kind)}, params: ${q(m.params)}${result} },`,
    );
  }
  out.push("} as const satisfies { readonly [M in Method]: MethodInfo & { readonly method: M } };", "");
  if (protocolVersion === TARGET_PROTOCOL_VERSION) {
    // What the typed connection routes by, without the type names: a bundle that references only
    // this table leaves METHODS out. v2 only (v1's tables are re-exported whole by /v1).
    out.push(
      "/** Each method's handling side and kind, keyed by wire method name (METHODS without the type names). */",
      "export const METHOD_ROUTES = {",
    );
    for (const m of methods) out.push(`  ${q(m.method)}: { handledBy: ${q(m.handledBy)}, kind: ${q(m.kind)} },`);
    out.push('} as const satisfies { readonly [M in Method]: Pick<(typeof METHODS)[M], "handledBy" | "kind"> };', "");
  }
  out.push(
    "/** Whether `name` is a method of the protocol (extension methods starting with `_` are not). */",
    "export function isKnownMethod(name: string): name is Method {",
    "  return Object.hasOwn(METHODS, name);",
    "}",
    "",
  );
  return out.join("\n");
}
