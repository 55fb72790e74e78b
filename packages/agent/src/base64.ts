/** Base64 without Node's Buffer (the package is runtime-neutral). */

const encoder = new TextEncoder();

/** Encodes bytes, or a string as UTF-8 bytes, to base64. */
export function toBase64(data: Uint8Array | string): string {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  let binary = "";
  // Chunked so that String.fromCharCode never receives more arguments than the engine allows.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return globalThis.btoa(binary);
}

/** Decodes base64 to bytes. Throws on malformed input. */
export function fromBase64(text: string): Uint8Array {
  const binary = globalThis.atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
