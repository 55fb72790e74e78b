// The node build keeps names (`keepNames`), but a closure made at run time whose name JavaScript
// infers anyway is left unwrapped (scripts/node-bundle.mjs): it has its name, and its properties
// stay fast, not the dictionary `__name`'s `defineProperty` would turn them into (~256 bytes
// more for each closure of each connection, session or message).
import { expect, it } from "vitest";
import { runInNode } from "../src/node-process.js";

it("gives a closure made per instance its inferred name without a dictionary of properties", () => {
  const closures = runInNode<{ name: string; fast: boolean }[]>(
    `
    const { EventEmitter } = await import("node:events");
    const { NodeWebSocketTransport } = await import("@acp-kit/transport-ws/node");
    const socket = Object.assign(new EventEmitter(), { readyState: 1, bufferedAmount: 0, pause() {}, resume() {} });
    const transport = new NodeWebSocketTransport(socket, { keepalive: false });
    report([transport.onMessage, transport.onClose, transport.warnInvalidUtf8].map((fn) => ({
      name: fn.name,
      fast: %HasFastProperties(fn),
    })));
    `,
    { flags: ["--allow-natives-syntax"] },
  );
  expect(closures).toEqual([
    { name: "onMessage", fast: true },
    { name: "onClose", fast: true },
    { name: "warnInvalidUtf8", fast: true },
  ]);
});
