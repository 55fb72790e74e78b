// Counts what the architecture budgets in docs/architecture.md are about: type assertions in
// hand-written library source, the longest hand-written file, and the protocol root's exports.
// `node scripts/source-metrics.mjs` prints the figures; `--check` (run by `npm test`) fails when a
// budget of docs/architecture.md is exceeded or a cast in agent or client has no `//` reason.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

const root = new URL("..", import.meta.url).pathname;
const LIBRARY = [
  "agent",
  "client",
  "protocol",
  "transport-stdio",
  "transport-ws",
  "testkit",
  "cli",
  "session-store-file",
  "session-store-postgres",
];

function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name === "generated" || name === "node_modules" || name === "dist" || name === "test") continue;
      out.push(...sourceFiles(path));
    } else if (/\.tsx?$/.test(name) && !/\.(test|test-d|bench)\.tsx?$/.test(name) && !name.endsWith(".d.ts")) {
      out.push(path);
    }
  }
  return out;
}

function casts(file) {
  const text = readFileSync(file, "utf8");
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lines = text.split("\n");
  const found = [];
  const visit = (node) => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
      const type = node.type.getText(sf);
      if (type !== "const") {
        const inner = node.expression;
        const doubled =
          (ts.isAsExpression(inner) || ts.isTypeAssertionExpression(inner)) && inner.type.getText(sf) === "unknown";
        const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
        // `x as unknown as T` is one double cast, counted once, as the outer node.
        if (!(type === "unknown" && ts.isAsExpression(node.parent) && node.parent.expression === node)) {
          const reasoned = /\/\/\s*\S/.test(lines[line - 1] ?? "") || /^\s*\/\//.test(lines[line - 2] ?? "");
          found.push({ line, type, doubled, reasoned });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { found, lines: lines.length };
}

const report = { doubleCasts: [], castsByPackage: {}, longest: [], unreasoned: [] };
for (const pkg of LIBRARY) {
  const dir = join(root, "packages", pkg, "src");
  let count = 0;
  for (const file of sourceFiles(dir)) {
    const { found, lines } = casts(file);
    const rel = relative(root, file);
    report.longest.push({ file: rel, lines });
    for (const c of found) {
      if (c.doubled) report.doubleCasts.push(`${rel}:${c.line}`);
      else count++;
      if ((pkg === "agent" || pkg === "client") && !c.reasoned) report.unreasoned.push(`${rel}:${c.line}`);
    }
  }
  report.castsByPackage[pkg] = count;
}
for (const file of sourceFiles(join(root, "tools"))) {
  report.longest.push({ file: relative(root, file), lines: casts(file).lines });
}
report.longest.sort((a, b) => b.lines - a.lines);

const indexPath = join(root, "packages/protocol/src/index.ts");
const program = ts.createProgram([indexPath], {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  strict: true,
  noEmit: true,
});
const checker = program.getTypeChecker();
const indexSf = program.getSourceFile(indexPath);
const rootExports = indexSf ? checker.getExportsOfModule(checker.getSymbolAtLocation(indexSf)).length : -1;

const agentClient = report.castsByPackage.agent + report.castsByPackage.client;
const check = process.argv.includes("--check");
if (!check) {
  console.log(`"as unknown as" outside tests: ${report.doubleCasts.length}`);
  for (const at of report.doubleCasts) console.log(`  ${at}`);
  console.log(`other casts by package: ${JSON.stringify(report.castsByPackage)}`);
  console.log(`other casts in agent + client: ${agentClient}`);
  console.log(`longest hand-written files:`);
  for (const f of report.longest.slice(0, 8)) console.log(`  ${f.lines} ${f.file}`);
  console.log(`protocol root exports: ${rootExports}`);
}

if (check) {
  const BUDGET = { casts: 20, lines: 450, rootExports: 61 };
  const failures = [];
  if (report.doubleCasts.length > 0)
    failures.push(`"as unknown as" in library source: ${report.doubleCasts.join(", ")}`);
  if (agentClient > BUDGET.casts) failures.push(`${agentClient} casts in agent + client (budget ${BUDGET.casts})`);
  for (const at of report.unreasoned) failures.push(`${at}: a cast without a // reason`);
  for (const f of report.longest.filter((f) => f.lines > BUDGET.lines))
    failures.push(`${f.file}: ${f.lines} lines (budget ${BUDGET.lines})`);
  if (rootExports >= BUDGET.rootExports)
    failures.push(`${rootExports} names at the protocol root (budget < ${BUDGET.rootExports})`);
  for (const failure of failures) console.error(`✗ ${failure}`);
  if (failures.length > 0) process.exit(1);
}
