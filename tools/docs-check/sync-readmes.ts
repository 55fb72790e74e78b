// `pnpm --filter @acp-kit/docs-check sync`: after editing (or formatting) an example, copies it
// back into every README block that shows it. A block shows the example whose first lines it
// shares (at least two), so edit the example, not the README.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { codeBlocks, exampleFiles, readmes, root } from "./test/readme-snippets.js";

const examples = exampleFiles().map((file) => ({ file, text: readFileSync(join(root, file), "utf8") }));

function sharedLeadingLines(a: string, b: string): number {
  const x = a.split("\n");
  const y = b.split("\n");
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
}

for (const readme of readmes()) {
  let text = readFileSync(join(root, readme), "utf8");
  let changed = false;
  for (const block of codeBlocks(readme)) {
    if (block.info !== "ts" && block.info !== "tsx") continue;
    const best = examples
      .map((example) => ({ ...example, shared: sharedLeadingLines(block.code, example.text) }))
      .sort((a, b) => b.shared - a.shared)[0];
    if (!best || best.shared < 2 || best.text === block.code) continue;
    text = text.replace(block.code, best.text);
    changed = true;
    console.log(`${readme}: updated the block showing ${best.file}`);
  }
  if (changed) writeFileSync(join(root, readme), text);
}
