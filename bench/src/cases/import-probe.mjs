// Imports the modules named on the command line (nothing for bare node), then prints the time
// since the process started and the RSS, as one JSON line. Plain JavaScript: no loader.
const start = performance.now();
for (const specifier of process.argv.slice(2)) await import(specifier);
const importMs = performance.now() - start;
process.stdout.write(
  `${JSON.stringify({ importMs, sinceStartMs: performance.now(), rss: process.memoryUsage.rss() })}\n`,
);
