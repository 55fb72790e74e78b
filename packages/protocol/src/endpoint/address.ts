/** The TCP address a server listens on (what Node's `server.address()` returns for TCP). */
export interface ListeningAddress {
  address: string;
  family: string;
  port: number;
}

/** `address` (a server's `address()`) as a TCP address; throws when `server` is not listening on a TCP port. */
export function tcpAddressOf<A extends ListeningAddress>(address: A | string | null, server: string): A {
  if (address === null || typeof address === "string") throw new Error(`${server} is not listening on a TCP port`);
  return address;
}

/** `scheme://host:port/path` of an endpoint at `address` (an IPv6 host in brackets). */
export function endpointUrl(scheme: string, address: ListeningAddress, path: string): string {
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `${scheme}://${host}:${address.port}${path}`;
}
