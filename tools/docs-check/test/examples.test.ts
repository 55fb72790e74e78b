// Every README code example runs from the repo root exactly as the README says, against the
// built packages (turbo builds them before this task), and prints what it should. Type-checking
// is each package's `typecheck` task (their tsconfig includes examples/), pinned here too.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { codeBlocks, exampleFiles, projectDirs, readmes, root } from "./readme-snippets.js";

const tsx = join(root, "node_modules", ".bin", "tsx");

interface Run {
  /** The example that this run starts. */
  example: string;
  /** The command line, as a README shows it, run from the repo root. */
  argv: string[];
  expect: RegExp;
  /** Which output `expect` reads: stdout unless said. */
  stream?: "stdout" | "stderr";
  exitCode?: number;
  /** Needs PostgreSQL: runs with `DATABASE_URL` set to `ACP_KIT_PG_URL`. */
  postgres?: boolean;
}

// `.ci/run` starts a throwaway PostgreSQL (.ci/postgres.sh) and exports its URL.
const PG_URL = process.env.ACP_KIT_PG_URL;
if (PG_URL === undefined && process.env.CI !== "true") {
  process.stderr.write(
    "\n!!! ACP_KIT_PG_URL is not set: the PostgreSQL README example is SKIPPED (install PostgreSQL: apt-get install postgresql, then npm test starts a throwaway cluster).\n\n",
  );
}

// Each example file, as its README (or its own header comment) says to run it. Examples that
// only exist to be started by another (an agent process) are listed under `startedBy`.
const runs: Run[] = [
  {
    example: "packages/client/examples/hello.ts",
    argv: ["tsx", "packages/client/examples/hello.ts", "node", "apps/sample-agent/dist/bin.js"],
    expect: /changed the greeting[\s\S]*\[stop reason: end_turn\]/,
  },
  {
    example: "packages/agent/examples/echo.ts",
    argv: ["tsx", "packages/client/examples/hello.ts", "npx", "tsx", "packages/agent/examples/echo.ts"],
    expect: /^Say hello in five words\.\n\[stop reason: end_turn\]\n$/,
  },
  {
    example: "packages/client/examples/hello.ts",
    argv: ["tsx", "packages/client/examples/hello.ts"],
    expect: /^hello: usage: tsx packages\/client\/examples\/hello\.ts <agent command>/,
    stream: "stderr",
    exitCode: 1,
  },
  {
    example: "packages/client/examples/hello.ts",
    argv: ["tsx", "packages/client/examples/hello.ts", "no-such-agent-command"],
    expect: /^hello: Could not start agent "no-such-agent-command"/,
    stream: "stderr",
    exitCode: 1,
  },
  {
    example: "packages/client/examples/cancel.ts",
    argv: ["tsx", "packages/client/examples/cancel.ts"],
    expect:
      /rejected it \(reject_once\)\nclient: stop reason end_turn\nagent: the prompt was withdrawn \(cancelled\)\nclient: stop reason cancelled/,
  },
  {
    example: "packages/client/examples/render-store.ts",
    argv: ["tsx", "packages/client/examples/render-store.ts"],
    expect:
      /^user: What is this project\?\nagent: Looking at the project\.\ntool Read package\.json \[read, completed\]\nplan: ✓ Read the manifest, · Report\nagent: It is called demo\.\nstate: idle, stop reason: end_turn\n$/,
  },
  {
    example: "packages/client/examples/resume-ws.ts",
    argv: ["tsx", "packages/client/examples/resume-ws.ts"],
    expect: /^message, message, message, message\nsame store: true\n$/,
  },
  {
    example: "packages/client/examples/react.tsx",
    argv: ["tsx", "packages/client/examples/react.tsx"],
    expect:
      /<li class="user">Hi!<\/li>.*Look around.*completed.*<li class="agent">Hello from the agent\.<\/li>.*Stopped: end_turn/,
  },
  {
    example: "packages/protocol/examples/decode.ts",
    argv: ["tsx", "packages/protocol/examples/decode.ts"],
    expect: /^decoded agent_message_chunk\nrejected at \/content\/type: must be a string\n$/,
  },
  {
    example: "packages/protocol/examples/json-rpc.ts",
    argv: ["tsx", "packages/protocol/examples/json-rpc.ts"],
    expect: /^3\n$/,
  },
  {
    example: "packages/protocol/examples/typed-connection.ts",
    argv: ["tsx", "packages/protocol/examples/typed-connection.ts"],
    expect: /^tiny-agent speaks protocol version 2\n$/,
  },
  {
    example: "packages/protocol/examples/transcript.ts",
    argv: ["tsx", "packages/protocol/examples/transcript.ts"],
    expect: /^client: initialize\nagent: result \(timed\)\n$/,
  },
  {
    example: "packages/protocol/examples/tracing.ts",
    argv: ["tsx", "packages/protocol/examples/tracing.ts"],
    expect: /^agent: traceparent received\nspan: acp initialize \(CLIENT\)\n$/,
  },
  {
    example: "packages/testkit/examples/cancel-scenario.ts",
    argv: ["tsx", "packages/testkit/examples/cancel-scenario.ts"],
    expect:
      /session\/request_permission \(id 0\)[\s\S]*client→agent session\/cancel[\s\S]*\{"outcome":\{"outcome":"cancelled"\}\}[\s\S]*"stopReason":"cancelled"\}\n$/,
  },
  {
    example: "packages/session-store-file/examples/durable-agent.ts",
    argv: ["tsx", "packages/session-store-file/examples/durable-agent.ts"],
    expect: /^user: remember me\nagent: You said: remember me\n$/,
  },
  {
    example: "packages/session-store-postgres/examples/fleet.ts",
    argv: ["tsx", "packages/session-store-postgres/examples/fleet.ts"],
    expect: /^user: hello\nagent: a heard: hello\nuser: again\nagent: b heard: again\n$/,
    postgres: true,
  },
  {
    example: "packages/session-store-postgres/examples/fleet.ts",
    argv: ["tsx", "packages/session-store-postgres/examples/fleet.ts"], // no DATABASE_URL
    expect: /^usage: DATABASE_URL=postgres:/,
    stream: "stderr",
    exitCode: 2,
  },
  {
    example: "packages/transport-stdio/examples/spawn.ts",
    argv: ["tsx", "packages/transport-stdio/examples/spawn.ts"],
    expect: /^pong\nagent exited with \{ code: 0, signal: null \}\n$/,
  },
  {
    example: "packages/transport-ws/examples/server.ts",
    argv: ["tsx", "packages/transport-ws/examples/server.ts"],
    expect: /^ws:\/\/127\.0\.0\.1:\d+\/acp\nwrong token: 401\nconnection [0-9a-f-]{36}\nagent: ws-agent\n$/,
  },
  {
    example: "packages/transport-ws/examples/reconnect.ts",
    argv: ["tsx", "packages/transport-ws/examples/reconnect.ts"],
    expect:
      /cookie none\nclient: connected\nclient: disconnected: .*\nserver: connection 2, cookie affinity=node-1\nclient: reconnected\nstate: connected\n$/,
  },
  {
    example: "packages/transport-ws/examples/browser-client.ts",
    argv: ["node", "--experimental-websocket", "--import", "tsx", "packages/transport-ws/examples/browser-client.ts"],
    expect: /protocolVersion: 2,\n\s+info: \{ name: 'echo', version: '1' \}/,
  },
  {
    example: "apps/sample-agent/examples/serve.ts",
    argv: ["tsx", "apps/sample-agent/examples/serve.ts"], // stdin is closed: it serves nothing and exits
    expect: /^$/,
  },
];
const startedBy: Record<string, string> = {
  "packages/transport-stdio/examples/agent-process.ts": "packages/transport-stdio/examples/spawn.ts",
};

function execute(
  argv: string[],
  extraEnv: Record<string, string> = {},
): { code: number | null; stdout: string; stderr: string } {
  const [command, ...args] = argv;
  const binary = command === "tsx" ? tsx : command === "node" ? process.execPath : command!;
  const r = spawnSync(binary, args, {
    cwd: root,
    encoding: "utf8",
    timeout: 60_000,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...withoutDatabaseUrl(process.env), NODE_ENV: "development", NO_COLOR: "1", ...extraEnv },
  });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function withoutDatabaseUrl(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { DATABASE_URL: _, ...rest } = env;
  return rest;
}

describe("README code examples", () => {
  const examples = exampleFiles();

  it("are each an example file, verbatim", () => {
    const sources = new Map(examples.map((file) => [readFileSync(join(root, file), "utf8"), file]));
    const problems: string[] = [];
    for (const readme of readmes()) {
      for (const block of codeBlocks(readme)) {
        if (!/^(ts|tsx)\b/.test(block.info) || block.info === "ts reference") continue;
        if (block.info !== "ts" && block.info !== "tsx") problems.push(`${readme}: unknown fence \`\`\`${block.info}`);
        else if (!sources.has(block.code))
          problems.push(`${readme}: a block is no example file:\n${block.code.slice(0, 200)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("are all run below, or started by one that is", () => {
    const covered = new Set([...runs.map((r) => r.example), ...Object.keys(startedBy)]);
    expect(examples.filter((file) => !covered.has(file))).toEqual([]);
  });

  it("are type-checked by their package's typecheck task", () => {
    for (const dir of projectDirs) {
      const own = examples.filter((file) => file.startsWith(`${dir}/`));
      if (own.length === 0) continue;
      const include = JSON.parse(readFileSync(join(root, dir, "tsconfig.json"), "utf8")).include as string[];
      for (const file of own) {
        const ext = file.endsWith(".tsx") ? "tsx" : "ts";
        expect(include, `${dir}/tsconfig.json includes ${file}`).toContain(`examples/**/*.${ext}`);
      }
    }
  });

  for (const run of runs) {
    const name = `${run.postgres ? "DATABASE_URL=… " : ""}${run.argv.join(" ")}`;
    it.skipIf(run.postgres === true && PG_URL === undefined && process.env.CI !== "true")(name, () => {
      if (run.postgres && PG_URL === undefined)
        throw new Error(
          "CI=true but ACP_KIT_PG_URL is not set: npm test starts PostgreSQL where its binaries are installed (.ci/run installs them; see .ci/postgres.sh)",
        );
      const { code, stdout, stderr } = execute(run.argv, run.postgres && PG_URL ? { DATABASE_URL: PG_URL } : {});
      expect(run.stream === "stderr" ? stderr : stdout, stderr).toMatch(run.expect);
      expect(code, stderr).toBe(run.exitCode ?? 0);
    });
  }
});
