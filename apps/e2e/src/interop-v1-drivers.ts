/**
 * The two directions of the v1 interop matrix, each behind one interface: our client meeting
 * the official SDK's v1 agent, and the official SDK's v1 client (its package root API) driving
 * our sample agent. Each runs the same checks and reports what it saw; the test asserts.
 */
import { type AcpClient, type ClientSession, connectToAgent, type SessionSnapshot } from "@acp-kit/client";
import type { Transport } from "@acp-kit/protocol/jsonrpc";
import type { RequestPermissionRequest } from "@acp-kit/protocol/types";
import { type SpawnedAgent, spawnAgent } from "@acp-kit/transport-stdio";
import { connectWebSocket } from "@acp-kit/transport-ws/node";
import * as acp from "@agentclientprotocol/sdk";
import { type AgentTarget, openSdkStream } from "./interop-drivers.js";

const INFO = { name: "interop-v1-client", version: "0" };

/** What a turn showed, in either direction. */
export interface V1TurnReport {
  stopReason: string | undefined;
  /** Streamed agent message chunks. */
  chunks: number;
  text: string;
  permissions: number;
  /** Final status of each tool call, by id. */
  toolStatuses: Map<string, string>;
  /** Content types each tool call ended with, by id. */
  toolContent: Map<string, string[]>;
  /** The entries' statuses of the last plan seen. */
  planStatuses: string[];
}

/** What a load/resume with replay rebuilt. */
export interface V1ReplayReport {
  userText: string;
  agentText: string;
  toolCalls: number;
  plans: number;
}

export interface V1CellSession {
  /** The version the connection negotiated, as our end reports it. */
  readonly protocolVersion: number;
  /** A turn that only streams text. */
  text(): Promise<V1TurnReport>;
  /** The full turn: thought, plan, tool calls with content, an edit behind a permission. */
  full(): Promise<V1TurnReport>;
  /** A long turn cancelled at its first streamed output. */
  cancelled(): Promise<V1TurnReport>;
  /** Has the agent read a file through the client (`fs/read_text_file`), when the client can. */
  readFile?(path: string): Promise<V1TurnReport>;
  /** Reopens the session with its history replayed. */
  replay(): Promise<V1ReplayReport>;
  close(): Promise<void>;
}

export interface V1CellDriver {
  readonly name: string;
  readonly agent: string;
  open(target: AgentTarget, cwd: string): Promise<V1CellSession>;
}

function emptyReport(): V1TurnReport {
  return {
    stopReason: undefined,
    chunks: 0,
    text: "",
    permissions: 0,
    toolStatuses: new Map(),
    toolContent: new Map(),
    planStatuses: [],
  };
}

function textOf(blocks: readonly { type: string; text?: string }[]): string {
  return blocks.map((b) => (b.type === "text" ? (b.text ?? "") : "")).join("");
}

// ---- our client × the official SDK's v1 agent ---------------------------------------------------

function reportFromStore(report: V1TurnReport, snapshot: SessionSnapshot): V1TurnReport {
  for (const [id, call] of snapshot.toolCalls) {
    report.toolStatuses.set(id, call.status);
    report.toolContent.set(
      id,
      call.content.map((c) => (c as { type: string }).type),
    );
  }
  const plan = [...snapshot.plans.values()].at(-1)?.plan as { entries?: { status: string }[] } | undefined;
  report.planStatuses = (plan?.entries ?? []).map((e) => e.status);
  return report;
}

export const acpKitClientV1: V1CellDriver = {
  name: "acp-kit client",
  agent: "SDK v1 agent",
  async open(target, cwd) {
    let spawned: SpawnedAgent | undefined;
    let transport: Transport;
    if (target.transport === "stdio") {
      spawned = spawnAgent(target.command, target.args, { stderr: "pipe" });
      transport = spawned.transport;
    } else {
      transport = await connectWebSocket(target.url);
    }
    let current: V1TurnReport | undefined;
    const client: AcpClient = await connectToAgent(transport, {
      info: INFO,
      v1Handlers: { readTextFile: ({ path }) => ({ content: `contents of ${path}` }) },
      handlers: {
        requestPermission(request: RequestPermissionRequest) {
          if (current) current.permissions++;
          const allow = request.options.find((o) => o.kind === "allow_once");
          return allow
            ? { outcome: { outcome: "selected", optionId: allow.optionId } }
            : { outcome: { outcome: "cancelled" } };
        },
      },
    });
    let session: ClientSession = await client.newSession({ cwd });
    const run = async (prompt: string, cancelAtFirstOutput = false): Promise<V1TurnReport> => {
      const report = emptyReport();
      current = report;
      const turn = session.prompt(prompt);
      for await (const update of turn) {
        if (update.sessionUpdate !== "agent_message_chunk") continue;
        report.chunks++;
        if (update.content.type === "text") report.text += update.content.text;
        if (cancelAtFirstOutput && report.chunks === 1) await turn.cancel();
      }
      report.stopReason = (await turn.done).stopReason;
      return reportFromStore(report, session.store.getSnapshot());
    };
    return {
      protocolVersion: client.protocolVersion,
      text: () => run("/text"),
      full: () => run("hello"),
      cancelled: () => run("/slow", true),
      readFile: (path) => run(`/read ${path}`),
      async replay() {
        session = await client.resumeSession(session.sessionId, { cwd, replay: true });
        const snapshot = session.store.getSnapshot();
        const messages = snapshot.timeline.filter((e) => e.type === "message") as unknown as {
          kind: string;
          content: { type: string; text?: string }[];
        }[];
        return {
          userText: messages
            .filter((m) => m.kind === "user")
            .map((m) => textOf(m.content))
            .join("|"),
          agentText: messages
            .filter((m) => m.kind === "agent")
            .map((m) => textOf(m.content))
            .join("|"),
          toolCalls: snapshot.toolCalls.size,
          plans: snapshot.plans.size,
        };
      },
      async close() {
        await client.close();
        if (spawned) await spawned.shutdown();
        else await transport.close();
      },
    };
  },
};

// ---- the official SDK's v1 client × our sample agent --------------------------------------------

type V1Update = acp.SessionUpdate & Record<string, unknown>;

export const sdkV1Client: V1CellDriver = {
  name: "SDK v1 client",
  agent: "acp-kit sample agent",
  async open(target, cwd) {
    const opened = openSdkStream(target);
    const child = opened.child;
    const stream = opened.stream as unknown as acp.Stream;
    let updates: V1Update[] = [];
    let permissions = 0;
    let onChunk: (() => void) | undefined;
    const app = acp
      .client({ name: "interop-sdk-v1-client" })
      .onRequest("session/request_permission", ({ params }) => {
        permissions++;
        const allow = params.options.find((o) => o.kind === "allow_once");
        return allow
          ? { outcome: { outcome: "selected", optionId: allow.optionId } }
          : { outcome: { outcome: "cancelled" } };
      })
      .onNotification("session/update", ({ params }) => {
        updates.push(params.update as V1Update);
        if (params.update.sessionUpdate === "agent_message_chunk") onChunk?.();
      });
    const connection = app.connect(stream);
    const agent = connection.agent;
    const init: acp.InitializeResponse = await agent.request("initialize", {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientInfo: INFO,
      clientCapabilities: {},
    });
    const { sessionId } = await agent.request("session/new", { cwd, mcpServers: [] });

    const run = async (prompt: string, cancelAtFirstOutput = false): Promise<V1TurnReport> => {
      const report = emptyReport();
      updates = [];
      permissions = 0;
      onChunk = cancelAtFirstOutput
        ? () => {
            onChunk = undefined;
            void agent.notify("session/cancel", { sessionId });
          }
        : undefined;
      const answer = await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: prompt }] });
      onChunk = undefined;
      report.stopReason = answer.stopReason;
      report.permissions = permissions;
      for (const u of updates) {
        if (u.sessionUpdate === "agent_message_chunk") {
          report.chunks++;
          report.text += textOf([u.content as { type: string; text?: string }]);
        } else if (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") {
          const id = u.toolCallId as string;
          if (typeof u.status === "string") report.toolStatuses.set(id, u.status);
          else if (!report.toolStatuses.has(id)) report.toolStatuses.set(id, "pending");
          if (Array.isArray(u.content))
            report.toolContent.set(
              id,
              u.content.map((c: { type: string }) => c.type),
            );
        } else if (u.sessionUpdate === "plan") {
          report.planStatuses = (u.entries as { status: string }[]).map((e) => e.status);
        }
      }
      return report;
    };
    return {
      protocolVersion: init.protocolVersion,
      text: () => run("/help"),
      full: () => run("show me everything"),
      cancelled: () => run("/slow 30", true),
      async replay() {
        updates = [];
        await agent.request("session/load", { sessionId, cwd, mcpServers: [] });
        const text = (tag: string) =>
          updates
            .filter((u) => u.sessionUpdate === tag)
            .map((u) => textOf([u.content as { type: string; text?: string }]))
            .join("");
        return {
          userText: text("user_message_chunk"),
          agentText: text("agent_message_chunk"),
          toolCalls: new Set(updates.filter((u) => u.sessionUpdate === "tool_call").map((u) => u.toolCallId)).size,
          plans: updates.filter((u) => u.sessionUpdate === "plan").length,
        };
      },
      async close() {
        connection.close();
        await child?.stop();
      },
    };
  },
};
