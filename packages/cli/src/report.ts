/**
 * A conformance report: one row per requirement and scenario, with a tier, a status and the
 * wire evidence it was judged on. MANDATORY rows are the protocol's MUSTs, CAPABILITY rows the
 * MUSTs that apply because the peer advertised a capability, ADVISORY rows its SHOULDs, INFO
 * rows observations. A report passes when no MANDATORY or CAPABILITY row failed.
 *
 * Each row names the protocol version it judged (the one negotiated with the peer); a row of
 * the other version only is skipped, saying so.
 */

export type Tier = "MANDATORY" | "CAPABILITY" | "ADVISORY" | "INFO";
export type Status = "pass" | "fail" | "skip";
/** The ACP protocol versions the checks judge. */
export type ProtocolVersion = 1 | 2;

export interface Row {
  /** Stable requirement id, e.g. `prompt.response-message-id`. */
  id: string;
  /** The scenario that exercised it (one fresh peer process each). */
  scenario: string;
  tier: Tier;
  status: Status;
  /** The protocol version the row judged (absent before one was negotiated). */
  version?: ProtocolVersion;
  /** What is required, in one sentence. */
  title: string;
  /** Why it passed or failed: the wire lines it was judged on, or what was missing. */
  evidence: string[];
}

export interface Report {
  kind: "agent" | "client";
  /** The command line (or URL) under test. */
  target: string;
  /** What the peer said about itself (`initialize`), when it got that far. */
  peer?: unknown;
  /** The protocol version negotiated with the peer (the first scenario's). */
  protocolVersion?: ProtocolVersion;
  rows: Row[];
  summary: { passed: number; failed: number; skipped: number; blockingFailures: number };
  ok: boolean;
}

export function isBlocking(row: Row): boolean {
  return row.status === "fail" && (row.tier === "MANDATORY" || row.tier === "CAPABILITY");
}

export function buildReport(
  kind: Report["kind"],
  target: string,
  rows: Row[],
  peer?: unknown,
  protocolVersion?: ProtocolVersion,
): Report {
  const summary = {
    passed: rows.filter((r) => r.status === "pass").length,
    failed: rows.filter((r) => r.status === "fail").length,
    skipped: rows.filter((r) => r.status === "skip").length,
    blockingFailures: rows.filter(isBlocking).length,
  };
  const report: Report = { kind, target, rows, summary, ok: summary.blockingFailures === 0 };
  if (peer !== undefined) report.peer = peer;
  if (protocolVersion !== undefined) report.protocolVersion = protocolVersion;
  return report;
}

const MARK: Record<Status, string> = { pass: "PASS", fail: "FAIL", skip: "SKIP" };

/** The report as text: one line per row, evidence indented under failures (and under `verbose` passes). */
export function formatReport(report: Report, options: { verbose?: boolean } = {}): string {
  const out: string[] = [`acp-kit check ${report.kind}: ${report.target}`];
  if (report.peer !== undefined) out.push(`${report.kind}: ${JSON.stringify(report.peer)}`);
  if (report.protocolVersion !== undefined) out.push(`protocol version: ${report.protocolVersion}`);
  let scenario = "";
  for (const row of report.rows) {
    if (row.scenario !== scenario) {
      scenario = row.scenario;
      out.push("", `[${scenario}]`);
    }
    const version = row.version === undefined ? "  " : `v${row.version}`;
    out.push(`${MARK[row.status]}  ${row.tier.padEnd(10)}  ${version}  ${row.id}: ${row.title}`);
    if (row.status === "fail" || options.verbose || (row.tier === "INFO" && row.status !== "skip"))
      for (const line of row.evidence) out.push(`        ${line}`);
    else if (row.status === "skip" && row.evidence[0]) out.push(`        ${row.evidence[0]}`);
  }
  const s = report.summary;
  out.push(
    "",
    `${s.passed} passed, ${s.failed} failed (${s.blockingFailures} MANDATORY/CAPABILITY), ${s.skipped} skipped: ${report.ok ? "conformant" : "NOT conformant"}${
      report.rows.some((r) => r.id.endsWith(".requires-auth"))
        ? " (the agent requires authentication: its sessions and turns were not checked)"
        : ""
    }`,
  );
  return out.join("\n");
}

/** Collects the rows of one scenario, each stamped with the version negotiated so far. */
export class RowSink {
  readonly rows: Row[] = [];
  /** The version the rows judge, once negotiated. */
  version: ProtocolVersion | undefined;
  constructor(readonly scenario: string) {}

  add(id: string, tier: Tier, title: string, status: Status | boolean, evidence: (string | undefined)[] = []): Row {
    const row: Row = {
      id,
      scenario: this.scenario,
      tier,
      status: typeof status === "boolean" ? (status ? "pass" : "fail") : status,
      title,
      evidence: evidence.filter((e): e is string => e !== undefined),
    };
    if (this.version !== undefined) row.version = this.version;
    this.rows.push(row);
    return row;
  }

  skip(id: string, tier: Tier, title: string, why: string): Row {
    return this.add(id, tier, title, "skip", [why]);
  }

  /**
   * A row that exists in `version` only, skipped because the peer speaks the other one. It names
   * the version it belongs to, not the negotiated one.
   */
  onlyIn(version: ProtocolVersion, id: string, tier: Tier, title: string, why: string): Row {
    const row = this.add(id, tier, title, "skip", [`v${version} only: ${why}`]);
    row.version = version;
    return row;
  }
}
