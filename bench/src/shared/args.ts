// Command-line options every benchmark reads the same way.

const argv = process.argv.slice(2);

/** `--json`: print one JSON object on stdout instead of the text report. */
export const jsonOutput = argv.includes("--json");

/** The number after `name` on the command line (`--count 1000`), else `fallback`. */
export function numberOption(name: string, fallback: number): number {
  const at = argv.indexOf(name);
  return at === -1 ? fallback : Number(argv[at + 1]);
}
