/** Collects the interop matrix's cells during a run and prints it as a table at the end. */

export type Outcome = "pass" | "fail";

export interface MatrixCell {
  client: string;
  agent: string;
  transport: string;
  check: string;
  outcome: Outcome;
  detail?: string;
}

export class InteropMatrix {
  readonly cells: MatrixCell[] = [];

  record(cell: MatrixCell): void {
    this.cells.push(cell);
  }

  /** Runs `check` and records its outcome (rethrowing a failure so the test fails too). */
  async run(
    where: Omit<MatrixCell, "outcome" | "detail" | "check">,
    check: string,
    body: () => Promise<void>,
  ): Promise<void> {
    try {
      await body();
      this.record({ ...where, check, outcome: "pass" });
    } catch (error) {
      this.record({ ...where, check, outcome: "fail", detail: (error as Error).message.split("\n")[0] });
      throw error;
    }
  }

  /** Rows = client × agent, columns = transport × check, cells = pass/FAIL (missing = not run). */
  format(): string {
    const rows = unique(this.cells.map((c) => `${c.client} × ${c.agent}`));
    const columns = unique(this.cells.map((c) => `${c.transport}: ${c.check}`));
    const header = ["client × agent", ...columns];
    const body = rows.map((row) => [
      row,
      ...columns.map((column) => {
        const cell = this.cells.find(
          (c) => `${c.client} × ${c.agent}` === row && `${c.transport}: ${c.check}` === column,
        );
        return cell === undefined ? "-" : cell.outcome === "pass" ? "pass" : "FAIL";
      }),
    ]);
    const widths = header.map((_, i) => Math.max(...[header, ...body].map((r) => (r[i] as string).length)));
    const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(" | ")} |`;
    const rule = `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`;
    const failures = this.cells
      .filter((c) => c.outcome === "fail")
      .map((c) => `  FAIL ${c.client} × ${c.agent} over ${c.transport}, ${c.check}: ${c.detail ?? ""}`);
    return [line(header), rule, ...body.map(line), ...failures].join("\n");
  }
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
