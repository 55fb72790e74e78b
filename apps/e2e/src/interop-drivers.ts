/**
 * The two clients of the interop matrix behind one interface: ours (`@acp-kit/client`) and the
 * official SDK's v2 client. Each runs the matrix's three checks against any agent: a turn with
 * streamed text, a turn with a tool call behind a permission request, and a cancelled turn.
 */
import { Readable, Writable } from "node:stream";
import { type AcpClient, type ClientSession, connectToAgent } from "@acp-kit/client";
import type { Transport } from "@acp-kit/protocol/jsonrpc";
import type { RequestPermissionRequest, SessionUpdate } from "@acp-kit/protocol/types";
import { type SpawnedAgent, spawnAgent } from "@acp-kit/transport-stdio";
import { connectWebSocket } from "@acp-kit/transport-ws/node";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { createWebSocketStream } from "@agentclientprotocol/sdk/experimental/ws-client";
import { WebSocket } from "ws";
import { startProcess, type TestProcess } from "./processes.js";

export type AgentTarget =
  | { transport: "stdio"; command: string; args: string[] }
  | { transport: "websocket"; url: string };

export interface TurnReport {
  stopReason: string | undefined;
  /** Agent message chunks received during the turn. */
  chunks: number;
  text: string;
  /** Permission requests received during the turn. */
  permissions: RequestPermissionRequest[];
  /** Final status of every tool call seen during the turn, by id. */
  toolStatuses: Map<string, string>;
}

export interface DriverSession {
  /** Runs a prompt to its idle, approving every permission request. */
  turn(prompt: string): Promise<TurnReport>;
  /** Runs a prompt, cancels it at its first streamed output, and waits for its idle. */
  cancelledTurn(prompt: string): Promise<TurnReport>;
  close(): Promise<void>;
}

export interface ClientDriver {
  readonly name: string;
  open(target: AgentTarget, cwd: string): Promise<DriverSession>;
}

const INFO = { name: "interop-client", version: "0" };

function allowOption(request: RequestPermissionRequest): string | undefined {
  return (
    request.options.find((o) => o.kind === "allow_once")?.optionId ??
    request.options.find((o) => o.kind === "allow_always")?.optionId
  );
}

function emptyReport(): TurnReport {
  return { stopReason: undefined, chunks: 0, text: "", permissions: [], toolStatuses: new Map() };
}

function note(report: TurnReport, update: SessionUpdate): boolean {
  const u = update as {
    sessionUpdate: string;
    content?: { type?: string; text?: string };
    toolCallId?: string;
    status?: string;
  };
  if (u.sessionUpdate === "agent_message_chunk") {
    report.chunks++;
    if (u.content?.type === "text") report.text += u.content.text ?? "";
    return true;
  }
  if (u.sessionUpdate === "tool_call_update" && u.toolCallId) {
    if (u.status) report.toolStatuses.set(u.toolCallId, u.status);
    else if (!report.toolStatuses.has(u.toolCallId)) report.toolStatuses.set(u.toolCallId, "pending");
  }
  return u.sessionUpdate === "terminal_output_chunk";
}

// ---- ours ------------------------------------------------------------------------------------

export const acpKitClient: ClientDriver = {
  name: "acp-kit client",
  async open(target, cwd) {
    let spawned: SpawnedAgent | undefined;
    let current: TurnReport | undefined;
    let transport: Transport;
    if (target.transport === "stdio") {
      spawned = spawnAgent(target.command, target.args, { stderr: "pipe" });
      transport = spawned.transport;
    } else {
      transport = await connectWebSocket(target.url);
    }
    const client: AcpClient = await connectToAgent(transport, {
      info: INFO,
      handlers: {
        requestPermission(request) {
          current?.permissions.push(request);
          const optionId = allowOption(request);
          return optionId ? { outcome: { outcome: "selected", optionId } } : { outcome: { outcome: "cancelled" } };
        },
      },
    });
    const session: ClientSession = await client.newSession({ cwd });
    const run = async (prompt: string, cancelAtFirstOutput: boolean): Promise<TurnReport> => {
      const report = emptyReport();
      current = report;
      const turn = session.prompt(prompt);
      let cancelled = false;
      for await (const update of turn) {
        const streamed = note(report, update);
        if (cancelAtFirstOutput && streamed && !cancelled) {
          cancelled = true;
          await turn.cancel();
        }
      }
      const result = await turn.done;
      report.stopReason = result.stopReason;
      // The store has each call's final status (a cancel marks unfinished calls at once).
      for (const id of report.toolStatuses.keys())
        report.toolStatuses.set(id, session.store.getSnapshot().toolCalls.get(id)?.status ?? "?");
      return report;
    };
    return {
      turn: (prompt) => run(prompt, false),
      cancelledTurn: (prompt) => run(prompt, true),
      async close() {
        await client.close();
        if (spawned) await spawned.shutdown();
        else await transport.close();
      },
    };
  },
};

/**
 * The official SDK's message stream to `target`, as its documentation builds one: NDJSON over a
 * spawned agent's stdio, or its WebSocket client. Its v1 and v2 APIs take the same stream.
 */
export function openSdkStream(target: AgentTarget): { child: TestProcess | undefined; stream: acp.Stream } {
  if (target.transport !== "stdio") {
    return {
      child: undefined,
      stream: createWebSocketStream(target.url, { WebSocket: WebSocket as never }) as acp.Stream,
    };
  }
  const child = startProcess(target.command, target.args, { captureStdout: false });
  const stream = acp.ndJsonStream(
    Writable.toWeb(child.child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.child.stdout) as ReadableStream<Uint8Array>,
  );
  return { child, stream };
}

// ---- the official SDK's v2 client -------------------------------------------------------------

export const sdkClient: ClientDriver = {
  name: "SDK client",
  async open(target, cwd) {
    const { child, stream } = openSdkStream(target);
    let current: TurnReport | undefined;
    const app = acp.client({ name: "interop-sdk-client" }).onRequest("session/request_permission", ({ params }) => {
      current?.permissions.push(params as unknown as RequestPermissionRequest);
      const optionId = allowOption(params as unknown as RequestPermissionRequest);
      return optionId ? { outcome: { outcome: "selected", optionId } } : { outcome: { outcome: "cancelled" } };
    });
    const connection = app.connect(stream);
    const agent = connection.agent;
    const init = await agent.request("initialize", {
      protocolVersion: acp.PROTOCOL_VERSION,
      info: INFO,
      capabilities: {},
    });
    if (init.protocolVersion !== 2) throw new Error(`agent answered protocol version ${init.protocolVersion}`);
    const session = await agent.buildSession(cwd).start();

    const run = async (prompt: string, cancelAtFirstOutput: boolean): Promise<TurnReport> => {
      const report = emptyReport();
      current = report;
      const inserted = session.prompt(prompt);
      let cancelled = false;
      while (true) {
        const message = await session.nextUpdate(AbortSignal.timeout(15_000));
        if (message.kind === "stop") {
          report.stopReason = message.stopReason ?? undefined;
          break;
        }
        const streamed = note(report, message.update as unknown as SessionUpdate);
        if (cancelAtFirstOutput && streamed && !cancelled) {
          cancelled = true;
          await agent.notify("session/cancel", { sessionId: session.sessionId });
        }
      }
      await inserted;
      return report;
    };
    return {
      turn: (prompt) => run(prompt, false),
      cancelledTurn: (prompt) => run(prompt, true),
      async close() {
        session.dispose();
        connection.close();
        await child?.stop();
      },
    };
  },
};
