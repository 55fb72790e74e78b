// CLI: `pnpm schema:bump <version>` moves the pinned upstream schema to another
// @agentclientprotocol/sdk version, regenerates, prints the surface diff and writes a changeset.
import { execFileSync } from "node:child_process";
import { repoPaths } from "./paths.ts";
import { bumpSchema } from "./schema-bump.ts";

async function main(): Promise<void> {
  const args = globalThis.process.argv.slice(2);
  if (args.length !== 1 || args[0]?.startsWith("-")) {
    globalThis.process.stderr.write("usage: pnpm schema:bump <version>   (e.g. pnpm schema:bump 2.5.0)\n");
    globalThis.process.exitCode = 2;
    return;
  }
  const paths = repoPaths();
  const result = await bumpSchema({
    version: args[0] as string,
    paths,
    install: () => execFileSync("pnpm", ["install"], { cwd: paths.root, stdio: "inherit" }),
  });
  globalThis.process.stdout.write(`${result.report}\n`);
}

main().catch((error: unknown) => {
  globalThis.process.stderr.write(`schema:bump failed: ${error instanceof Error ? error.message : String(error)}\n`);
  globalThis.process.exitCode = 1;
});
