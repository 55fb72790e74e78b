/**
 * The inspector page: @acp-kit/client over our WebSocket transport, the session store rendered
 * beside the live wire log. Loaded by the page `acp-kit inspect` serves on 127.0.0.1.
 */
import { type ClientSession, connectToAgent, type Turn } from "@acp-kit/client";
import { tapTransport } from "@acp-kit/protocol/jsonrpc";
import type { RequestPermissionRequest, RequestPermissionResponse } from "@acp-kit/protocol/types";
import { connectWebSocket } from "@acp-kit/transport-ws";
import { escapeHtml, sessionHtml, statusText } from "./render.js";
import { WireView } from "./wire-view.js";

interface InspectorState {
  ready: boolean;
  error?: string;
  turns: number;
  lastStopReason?: string;
}

const state: InspectorState = { ready: false, turns: 0 };
(globalThis as { __inspector?: InspectorState }).__inspector = state;

const $ = <T extends HTMLElement>(selector: string) => document.querySelector(selector) as T;
const config = JSON.parse(($("#config") as HTMLScriptElement).textContent ?? "{}") as { cwd: string };
const token = new URLSearchParams(location.search).get("token") ?? "";
const wire = new WireView(document.body);

function showPermission(request: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse> {
  const box = $("#permission");
  return new Promise((resolve) => {
    const done = (response: RequestPermissionResponse) => {
      box.hidden = true;
      box.innerHTML = "";
      resolve(response);
    };
    box.innerHTML = `<div class="perm-title">${escapeHtml(request.title ?? "Permission requested")}</div>${request.options
      .map((o, i) => `<button data-option="${i}" class="perm-${escapeHtml(o.kind)}">${escapeHtml(o.name)}</button>`)
      .join("")}`;
    box.hidden = false;
    for (const button of box.querySelectorAll("button"))
      button.addEventListener("click", () => {
        const option = request.options[Number(button.dataset.option)];
        if (option) done({ outcome: { outcome: "selected", optionId: option.optionId } });
      });
    signal.addEventListener("abort", () => done({ outcome: { outcome: "cancelled" } }), { once: true });
  });
}

async function start(): Promise<void> {
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/acp?token=${encodeURIComponent(token)}`;
  const transport = tapTransport(await connectWebSocket(url), (event) => wire.add(event));
  const client = await connectToAgent(transport, {
    info: { name: "acp-kit-inspect", title: "acp-kit inspect", version: "0.0.0" },
    handlers: { requestPermission: (request, context) => showPermission(request, context.signal) },
  });
  $("#agent").textContent =
    `${client.agentInfo.title ?? client.agentInfo.name} ${client.agentInfo.version} · protocol ${client.protocolVersion}`;
  const session: ClientSession = await client.newSession({ cwd: config.cwd });
  const render = () => {
    const snapshot = session.store.getSnapshot();
    $("#session").innerHTML = sessionHtml(snapshot);
    $("#state").textContent = statusText(snapshot);
  };
  session.store.subscribe(render);
  render();

  let turn: Turn | undefined;
  const input = $<HTMLTextAreaElement>("#prompt");
  $("#send").addEventListener("click", () => {
    const text = input.value.trim();
    if (text === "" || (turn && !turn.isDone)) return;
    input.value = "";
    turn = session.prompt(text);
    turn.done.then(
      (result) => {
        state.turns++;
        if (result.stopReason !== undefined) state.lastStopReason = result.stopReason;
      },
      (error: unknown) => (state.error = String(error)),
    );
  });
  $("#cancel").addEventListener("click", () => void session.cancel().catch(() => {}));
  state.ready = true;
  $("#state").dataset.ready = "true";
}

start().catch((error: unknown) => {
  state.error = error instanceof Error ? error.message : String(error);
  $("#state").textContent = `error: ${state.error}`;
});
