/**
 * ACP over WebSocket: after the upgrade the client must send `initialize` first, as a request
 * (with an id). The official SDK server closes the socket with 1002 otherwise; so do we.
 * Returns a reason to close with, or undefined when the payload is a valid first message.
 *
 * Only the first payload is parsed here, so this costs one `JSON.parse` per connection.
 */
export function checkFirstMessage(payload: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return "First message must be initialize (got invalid JSON)";
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return "First message must be an initialize request object";
  }
  const method = "method" in value ? value.method : undefined;
  if (method !== "initialize") return "First message must be initialize";
  const id = "id" in value ? value.id : undefined;
  if (id === undefined || id === null) return "Initialize request must include an id";
  return undefined;
}
