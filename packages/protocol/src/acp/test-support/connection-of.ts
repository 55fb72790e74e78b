// A typed connection of a side named at run time, for tests that run one scenario on either
// side. The library has no such door: each factory passes its own side's tables only.
import type { Transport } from "../../jsonrpc/transport.js";
import { AcpConnection } from "../acp-connection.js";
import type { AcpConnectionOptions } from "../acp-connection-types.js";
import { agentSideTables, clientSideTables, type SideTables } from "../side-tables.js";
import type { AcpSide } from "../sides.js";

export function connectionOf<S extends AcpSide>(
  side: S,
  transport: Transport,
  options?: AcpConnectionOptions,
): AcpConnection<S> {
  const tables: { readonly [K in AcpSide]: () => SideTables<K> } = { agent: agentSideTables, client: clientSideTables };
  return new AcpConnection(tables[side](), transport, options);
}
