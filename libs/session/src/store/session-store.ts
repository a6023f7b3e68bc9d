/**
 * Where a session keeps its conversation between processes. A store holds, per session id, an ordered
 * log of entries: the messages each turn added (the system prompt never), a whole replacement when
 * compaction or a hook rewrote the history, and the questions asked and closed, so a session reopened
 * after a restart shows the same open question.
 *
 * One writer per session id: `append` names the version its writer last saw; a store whose log moved
 * past it (another writer appended) refuses with SessionConflictError and writes nothing.
 */
import { HeliosError, type Message } from '@helios/core';
import { type QuestionRequest } from '../questions/question.js';

export type StoredEntry =
  | { readonly kind: 'message'; readonly message: Message }
  /** The conversation from here on starts over with these messages (compaction, MutateHistory). */
  | { readonly kind: 'history'; readonly messages: readonly Message[] }
  /** A question the session is waiting on; `toolCallId` is the call it was asked for, when one was. */
  | { readonly kind: 'question'; readonly request: QuestionRequest; readonly toolCallId?: string }
  | { readonly kind: 'questionClosed'; readonly questionId: string };

export interface StoredSession {
  readonly entries: readonly StoredEntry[];
  /** Opaque position of the last entry; `0` for a session the store does not hold. */
  readonly version: number;
}

export interface SessionStore {
  /** The session's entries in the order they were appended; none for an unknown id. */
  load(sessionId: string): Promise<StoredSession>;
  /**
   * Appends after `expectedVersion` and returns the new version. SessionConflictError when the stored
   * log is no longer at `expectedVersion` (another writer appended); nothing is written then.
   */
  append(sessionId: string, expectedVersion: number, entries: readonly StoredEntry[]): Promise<number>;
}

/** Another writer appended to the session since this one loaded or last appended it. */
export class SessionConflictError extends HeliosError {
  readonly code = 'SESSION_CONFLICT';

  constructor(message: string) {
    super(message);
    this.name = 'SessionConflict';
  }
}

/** The stored log cannot be read back as a conversation (not a torn last line: damage before it). */
export class SessionStoreCorruptError extends HeliosError {
  readonly code = 'SESSION_STORE_CORRUPT';
}
