/**
 * The part of the WHATWG `WebSocket` this package uses, declared structurally so the browser
 * entry type-checks without the DOM library and works with any standard implementation
 * (browsers, Deno, Bun, Node 22's global, `ws` in its browser-compatible mode).
 */
export interface StandardWebSocket {
  readonly readyState: number;
  readonly bufferedAmount: number;
  readonly protocol: string;
  binaryType: string;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: "open", listener: () => void): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
  addEventListener(
    type: "close",
    listener: (event: { code: number; reason: string; wasClean?: boolean }) => void,
  ): void;
  addEventListener(type: "error", listener: (event: unknown) => void): void;
  removeEventListener(type: string, listener: (...args: never[]) => void): void;
}

export type StandardWebSocketConstructor = new (url: string, protocols?: string | string[]) => StandardWebSocket;

/** The runtime's global `WebSocket`, if it has one. */
export function globalWebSocket(): StandardWebSocketConstructor | undefined {
  // Read untyped (the DOM library is not loaded); any function found there is taken as standard.
  const candidate: unknown = Reflect.get(globalThis, "WebSocket");
  return isConstructor(candidate) ? candidate : undefined;
}

function isConstructor(value: unknown): value is StandardWebSocketConstructor {
  return typeof value === "function";
}
