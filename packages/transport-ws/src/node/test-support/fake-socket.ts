// A `ws` socket stand-in for the transport's unit tests: each send is recorded in `events` (as
// `<prefix>send <data>`) and its callback called at once; everything else does nothing.
import type { WsSocket } from "../ws-socket.js";

export function fakeWsSocket(events: string[], options: { prefix?: string; bufferedAmount?: number } = {}): WsSocket {
  const prefix = options.prefix ?? "";
  return {
    readyState: 1,
    bufferedAmount: options.bufferedAmount ?? 0,
    protocol: "",
    send: (data: string, callback?: (error?: Error) => void) => {
      events.push(`${prefix}send ${data}`);
      callback?.();
    },
    close: () => {},
    terminate: () => {},
    ping: () => {},
    pause: () => {},
    resume: () => {},
    on: () => undefined,
    off: () => undefined,
  };
}
