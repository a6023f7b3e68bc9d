import { createHash } from 'node:crypto';
import { type SessionStore, type StoredEntry, type StoredSession } from '@helios/session';
import { type Principal, principalKey } from '../../auth/authentication.js';

/** Public session ids may be this long; the owner prefix takes the rest of the store's 128. */
export const MAX_PUBLIC_SESSION_ID = 100;

/**
 * A store seen through one principal: every id is kept under `<owner>.<id>`, where `<owner>` is a digest
 * of the tenant and subject. Another principal naming the same session id reaches a different (empty)
 * conversation, so isolation holds in the store itself, not only in the registry's lookups.
 */
export class OwnedSessionStore implements SessionStore {
  readonly #inner: SessionStore;
  readonly #prefix: string;

  constructor(inner: SessionStore, owner: Principal) {
    this.#inner = inner;
    this.#prefix = ownerPrefix(owner);
  }

  load(sessionId: string): Promise<StoredSession> {
    return this.#inner.load(this.#key(sessionId));
  }

  append(sessionId: string, expectedVersion: number, entries: readonly StoredEntry[]): Promise<number> {
    return this.#inner.append(this.#key(sessionId), expectedVersion, entries);
  }

  #key(sessionId: string): string {
    return `${this.#prefix}.${sessionId}`;
  }
}

/** 22 base64url characters (132 bits) of SHA-256 over the principal; valid in a session id. */
export function ownerPrefix(owner: Principal): string {
  return createHash('sha256').update(principalKey(owner)).digest('base64url').slice(0, 22);
}
