/**
 * Optional diagnostics sink. Same shape as `Logger` in `@acp-kit/protocol` (structurally
 * compatible), declared here so the store subpath depends on nothing at runtime.
 */
export interface Logger {
  debug?(msg: string, data?: unknown): void;
  info?(msg: string, data?: unknown): void;
  warn?(msg: string, data?: unknown): void;
  error?(msg: string, data?: unknown): void;
}
