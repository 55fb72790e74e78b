/**
 * What a builder (message, tool call, terminal, plan) sends through: a turn (its updates stop at
 * the turn's idle) or a session (background updates, allowed while idle).
 */
import type { SessionUpdate } from "@acp-kit/protocol/types";

export interface UpdateOwner {
  /** Sends one update. Throws synchronously when the owner has ended or the update is invalid. */
  emit(update: SessionUpdate, what: string): Promise<void>;
  /** Records an update in the session history without sending it (the client applied it another way). */
  record(update: SessionUpdate): void;
  /** False once nothing more may be emitted through this owner. */
  readonly active: boolean;
  readonly sessionId: string;
}
