import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fillPlaceholders, shellQuote } from "./client-process.js";

/** What a POSIX shell's split makes of `line`, one word a line (printf of each argument). */
const shellSplit = (line: string): string[] =>
  execFileSync("sh", ["-c", `printf '%s\\0' ${line}`], { encoding: "utf8" })
    .split("\0")
    .slice(0, -1);

describe("placeholders", () => {
  const agent = ["/opt/my tools/node", "--import", "file:///x/loader.mjs", "/tmp/relay.js", "127.0.0.1:4000", "it's"];

  it("a word that is the placeholder becomes its words", () => {
    expect(fillPlaceholders(["client", "{agent}"], { "{agent}": agent })).toEqual(["client", ...agent]);
  });

  it("--agent={agent}: one word, quoted so that a shell-style split gives the words back", () => {
    const [word] = fillPlaceholders(["--agent={agent}"], { "{agent}": agent });
    expect(word).toBe(
      `--agent='/opt/my tools/node' --import file:///x/loader.mjs /tmp/relay.js 127.0.0.1:4000 'it'\\''s'`,
    );
    expect(shellSplit((word as string).slice("--agent=".length))).toEqual(agent);
  });

  it("any words survive the quoting and a shell split (property)", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ minLength: 1 }).filter((w) => !w.includes("\0")),
          { minLength: 1, maxLength: 5 },
        ),
        (words) => {
          expect(shellSplit(words.map(shellQuote).join(" "))).toEqual(words);
        },
      ),
      { numRuns: 50 },
    );
  });
});
