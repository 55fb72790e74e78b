// The headline symbols carry a declaration comment with an @example (TypeDoc shows it; the
// `docs` script builds the reference with zero warnings allowed).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "./readme-snippets.js";

const headline: [file: string, declaration: string][] = [
  ["packages/agent/src/agent.ts", "export function defineAgent("],
  ["packages/agent/src/agent.ts", "export interface Agent {"],
  ["packages/agent/src/agent-definition.ts", "export interface AgentDefinition {"],
  ["packages/agent/src/session-store.ts", "export interface SessionStore {"],
  ["packages/client/src/client.ts", "export async function connectToAgent("],
  ["packages/client/src/store/snapshot-store.ts", "export class SessionStore {"],
  ["packages/client/src/permission.ts", "export function selectPermissionOption("],
  ["packages/transport-stdio/src/spawn-agent.ts", "export function spawnAgent("],
  ["packages/transport-stdio/src/stdio-transport.ts", "export function stdioTransport("],
  ["packages/transport-ws/src/node/server.ts", "export async function createAcpWebSocketServer("],
  ["packages/transport-ws/src/node/connect-websocket.ts", "export async function connectWebSocket("],
  ["packages/transport-ws/src/browser/connect-websocket.ts", "export function connectWebSocket("],
  ["packages/transport-ws/src/node/cookie-jar.ts", "export class AcpCookieJar {"],
];

describe("API reference comments", () => {
  for (const [file, declaration] of headline) {
    it(`${declaration.replace(/[({]\s*$/, "").trim()} (${file}) has a doc comment with an @example`, () => {
      const source = readFileSync(join(root, file), "utf8");
      const at = source.indexOf(declaration);
      expect(at, `${declaration} not found in ${file}`).toBeGreaterThan(-1);
      const before = source.slice(0, at).trimEnd();
      expect(before.endsWith("*/"), "no doc comment right before the declaration").toBe(true);
      const comment = before.slice(before.lastIndexOf("/**"));
      expect(comment).toMatch(/@example\n \* ```ts\n/);
    });
  }
});
