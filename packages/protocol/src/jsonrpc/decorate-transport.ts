import type { Transport } from "./transport.js";

/**
 * `transport` with some of its `start` / `send` replaced (a wire tap, trace propagation, a hook),
 * and everything else passed through: `close`, and the optional members a wrapper must not hide
 * (`describePeer` for error reports, `onBeforeWrite` for the agent's write-ahead rule: without it
 * an agent behind the wrapper would write its store once per message instead of once per write).
 */
export function decorateTransport(
  transport: Transport,
  replaced: Partial<Pick<Transport, "start" | "send">>,
): Transport {
  const decorated: Transport = {
    start: replaced.start ?? ((sink) => transport.start(sink)),
    send: replaced.send ?? ((payload) => transport.send(payload)),
    close: () => transport.close(),
  };
  if (transport.describePeer !== undefined) decorated.describePeer = transport.describePeer.bind(transport);
  if (transport.onBeforeWrite !== undefined) decorated.onBeforeWrite = transport.onBeforeWrite.bind(transport);
  return decorated;
}
