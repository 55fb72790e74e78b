export * from "./errors.js";
export type * from "./transport.js";
export type { Logger } from "./logger.js";
export { silentLogger } from "./logger.js";
export { disposable, type Disposable } from "./disposable.js";
export {
  classifyInbound,
  errorResponse,
  isJsonRpcId,
  type InboundEntry,
  type JsonRpcErrorResponse,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcPayload,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type JsonRpcSuccessResponse,
} from "./messages.js";
export { CANCEL_REQUEST_METHOD, type CancelRequestParams } from "./cancellation.js";
export {
  Connection,
  type ConnectionOptions,
  type NotificationContext,
  type NotificationHandler,
  type RequestContext,
  type RequestHandler,
  type RequestOptions,
} from "./connection.js";
export { KeyedSerializer } from "./keyed-serializer.js";
export {
  createInMemoryTransportPair,
  type InMemoryTransport,
  type InMemoryTransportOptions,
} from "./in-memory-transport.js";
export { streamFromTransport, transportFromStream, type JsonRpcMessageStream } from "./stream-adapters.js";
