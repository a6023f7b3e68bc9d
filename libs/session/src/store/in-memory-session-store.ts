/**
 * A SessionStore in this process's memory: for tests and for sessions that should survive a close but
 * not a restart. Entries are kept in their wire form, as a durable store would, so what loads back is a
 * copy the caller cannot change underneath the store.
 */
import { requireSessionId } from '../session-id.js';
import { entryToWire, readEntry, type StoredEntryWire } from './entry-wire.js';
import {
  SessionConflictError,
  type SessionStore,
  type StoredEntry,
  type StoredSession,
} from './session-store.js';

export class InMemorySessionStore implements SessionStore {
  readonly #logs = new Map<string, StoredEntryWire[]>();

  // Async so that a bad id or entry rejects, as a durable store's would, rather than throwing.
  async load(sessionId: string): Promise<StoredSession> {
    const log = this.#logs.get(requireSessionId(sessionId)) ?? [];
    const entries = log.map((wire, index) => readEntry(structuredClone(wire), `entries[${index}]`));
    return Promise.resolve({ entries, version: log.length });
  }

  async append(sessionId: string, expectedVersion: number, entries: readonly StoredEntry[]): Promise<number> {
    const id = requireSessionId(sessionId);
    const log = this.#logs.get(id) ?? [];
    if (log.length !== expectedVersion) {
      throw new SessionConflictError(
        `session ${id} was written by another writer (at version ${log.length}, expected ${expectedVersion})`,
      );
    }
    // Serialised first: an entry that cannot be stored leaves the log untouched.
    const wires = entries.map((entry) => structuredClone(entryToWire(entry)));
    log.push(...wires);
    this.#logs.set(id, log);
    return Promise.resolve(log.length);
  }

  /** Session ids held, for tests and listings. */
  sessionIds(): readonly string[] {
    return [...this.#logs.keys()];
  }
}
