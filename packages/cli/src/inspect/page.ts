/** The inspector's HTML shell; the script is the bundled ./web/app.ts. */

const STYLE = `
:root { color-scheme: light; font: 13px/1.4 system-ui, sans-serif; }
body { margin: 0; display: grid; grid-template-columns: 1fr 1fr; grid-template-rows: auto 1fr auto; height: 100vh; }
header { grid-column: 1 / 3; display: flex; gap: 1em; align-items: center; padding: 6px 12px; background: #1f2937; color: #f9fafb; }
header b { font-size: 14px; }
#state { margin-left: auto; padding: 2px 8px; border-radius: 4px; background: #374151; }
#session { overflow: auto; padding: 8px 12px; border-right: 1px solid #ddd; }
#wire { display: flex; flex-direction: column; min-height: 0; }
#wire-bar { display: flex; gap: 6px; padding: 6px; border-bottom: 1px solid #ddd; }
#wire-filter { flex: 1; }
#wire-list { overflow: auto; flex: 1; font: 12px ui-monospace, monospace; }
.wire summary { cursor: pointer; padding: 1px 6px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.wire.out summary { background: #eff6ff; } .wire.in summary { background: #f0fdf4; }
.wire pre { margin: 0 6px 6px; background: #f8fafc; padding: 4px; max-height: 240px; overflow: auto; }
.bytes, .t { color: #6b7280; } .dir { font-weight: 600; }
footer { grid-column: 1 / 3; display: flex; gap: 6px; padding: 6px 12px; border-top: 1px solid #ddd; }
#prompt { flex: 1; height: 3em; }
.msg { margin: 6px 0; } .msg .who { font-size: 11px; text-transform: uppercase; color: #6b7280; }
.msg.user .text { background: #eef2ff; padding: 4px 8px; border-radius: 6px; display: inline-block; }
.msg.thought .text { color: #6b7280; font-style: italic; }
.msg .text, .tool-text { white-space: pre-wrap; }
.tool { border: 1px solid #e5e7eb; border-radius: 6px; margin: 6px 0; padding: 4px 8px; }
.tool .status { font-size: 11px; padding: 0 4px; border-radius: 3px; background: #e5e7eb; }
.tool[data-status=completed] .status { background: #bbf7d0; } .tool[data-status=failed] .status { background: #fecaca; }
.kind { color: #6b7280; font-size: 11px; }
.locations { margin: 2px 0; color: #374151; font: 12px ui-monospace, monospace; }
pre.diff { background: #f8fafc; padding: 4px; overflow: auto; } .diff .add { color: #15803d; } .diff .del { color: #b91c1c; }
.terminal pre { background: #111827; color: #e5e7eb; padding: 6px; margin: 0; overflow: auto; }
.term-head { font: 12px ui-monospace, monospace; color: #374151; }
.plan ul { margin: 2px 0; } .plan-completed { text-decoration: line-through; color: #6b7280; }
#permission { grid-column: 1 / 3; padding: 8px 12px; background: #fef3c7; display: flex; gap: 6px; align-items: center; }
#permission[hidden] { display: none; }
.perm-title { font-weight: 600; margin-right: 8px; }
`;

export function inspectorPage(options: { cwd: string; title: string }): string {
  const config = JSON.stringify({ cwd: options.cwd }).replace(/</g, "\\u003c");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>acp-kit inspect · ${options.title.replace(/[<&]/g, "")}</title>
<style>${STYLE}</style></head>
<body>
<header><b>acp-kit inspect</b><span id="agent">connecting…</span><span id="state">connecting</span></header>
<main id="session"></main>
<section id="wire"><div id="wire-bar"><input id="wire-filter" placeholder="filter the wire log (text)"><select id="wire-direction"><option value="all">both ways</option><option value="out">→ agent</option><option value="in">← agent</option></select><span id="wire-count"></span></div><div id="wire-list"></div></section>
<div id="permission" hidden></div>
<footer><textarea id="prompt" placeholder="Prompt the agent"></textarea><button id="send">Send</button><button id="cancel">Cancel</button></footer>
<script type="application/json" id="config">${config}</script>
<script type="module" src="app.js"></script>
</body></html>`;
}
