/**
 * A SessionStore on PostgreSQL: one `helios_session_entries` row per entry, in the session's wire form
 * (`json`, so it reads back byte for byte), and a `helios_sessions` row whose `version` (the entry
 * count) is the compare-and-set of every append.
 *
 * An append is one statement: it moves the version from the one its writer last saw to the new count
 * and inserts the entries only if that move happened. Two writers racing from one version serialise
 * on the session row; the second finds the version moved and writes nothing (SessionConflictError).
 * No redaction: the session already redacted what it emits, and a replayed provider-signed turn must
 * stay byte-identical (the reference's PgSessionStore never applies its redactor either).
 */
import {
  entryToWire,
  readEntry,
  requireSessionId,
  SessionConflictError,
  type SessionStore,
  SessionStoreCorruptError,
  type StoredEntry,
  type StoredSession,
} from '@helios/session';
import { type DataSource } from 'typeorm';
import { PersistenceConfig } from '../observability/persistence-config.js';

interface EntrySqlRow {
  readonly version: string;
  readonly seq: string | null;
  readonly body: string | null;
}

export class PgSessionStore implements SessionStore {
  readonly #dataSource: DataSource;
  readonly #sql: ReturnType<typeof statements>;

  constructor(dataSource: DataSource, config: PersistenceConfig = PersistenceConfig.DEFAULT) {
    this.#dataSource = dataSource;
    this.#sql = statements(config);
  }

  async load(sessionId: string): Promise<StoredSession> {
    const id = requireSessionId(sessionId);
    const rows = (await this.#dataSource.query(this.#sql.load, [id])) as EntrySqlRow[];
    const entries: StoredEntry[] = [];
    for (const row of rows) {
      if (row.body === null) continue;
      try {
        entries.push(readEntry(JSON.parse(row.body), `session ${id} entry ${row.seq}`));
      } catch (error) {
        throw new SessionStoreCorruptError(`entry ${row.seq} of session ${id} is not a stored entry`, {
          cause: error,
        });
      }
    }
    return { entries, version: rows.length === 0 ? 0 : Number(rows[0]?.version) };
  }

  async append(sessionId: string, expectedVersion: number, entries: readonly StoredEntry[]): Promise<number> {
    const id = requireSessionId(sessionId);
    if (!Number.isSafeInteger(expectedVersion) || expectedVersion < 0) {
      throw new SessionConflictError(`session ${id}: ${expectedVersion} is not a version this store gave`);
    }
    // Serialised first: an entry that cannot be stored leaves the session untouched.
    const kinds = entries.map((entry) => entry.kind);
    const bodies = entries.map((entry) => JSON.stringify(entryToWire(entry)));
    const next = expectedVersion + entries.length;
    const sql = expectedVersion === 0 ? this.#sql.appendFirst : this.#sql.appendNext;
    const rows = (await this.#dataSource.query(sql, [id, expectedVersion, next, kinds, bodies])) as {
      readonly moved: boolean;
    }[];
    if (rows[0]?.moved !== true) {
      throw new SessionConflictError(
        `session ${id} was written by another writer (expected version ${expectedVersion})`,
      );
    }
    return next;
  }

  /** Removes a session and its entries; false when there was none. */
  async delete(sessionId: string): Promise<boolean> {
    const id = requireSessionId(sessionId);
    const rows = (await this.#dataSource.query(this.#sql.remove, [id])) as { readonly removed: number }[];
    return rows[0]?.removed === 1;
  }
}

/** The statements, qualified once per store with the configured schema. */
function statements(config: PersistenceConfig) {
  const sessions = config.qualify('helios_sessions');
  const entries = config.qualify('helios_session_entries');
  // $4 kinds, $5 bodies: one row per element, numbered after the expected version ($2).
  const insertEntries = `
    inserted AS (
      INSERT INTO ${entries} ("session_id", "seq", "kind", "body")
      SELECT $1, $2::bigint + e.ord, e.kind, e.body::json
        FROM unnest($4::text[], $5::text[]) WITH ORDINALITY AS e(kind, body, ord)
       WHERE EXISTS (SELECT 1 FROM moved)
      RETURNING 1
    )
    SELECT EXISTS (SELECT 1 FROM moved) AS moved, (SELECT count(*) FROM inserted) AS inserted`;
  return {
    load: `
      SELECT s."version", e."seq", e."body"::text AS "body"
        FROM ${sessions} s
        LEFT JOIN ${entries} e ON e."session_id" = s."session_id"
       WHERE s."session_id" = $1
       ORDER BY e."seq"`,
    // A new session: created at the new version, or moved from 0 if an empty append created it.
    appendFirst: `
      WITH moved AS (
        INSERT INTO ${sessions} AS s ("session_id", "version") VALUES ($1, $3)
        ON CONFLICT ("session_id") DO UPDATE SET "version" = $3, "updated_at" = now()
         WHERE s."version" = $2
        RETURNING 1
      ), ${insertEntries}`,
    appendNext: `
      WITH moved AS (
        UPDATE ${sessions} SET "version" = $3, "updated_at" = now()
         WHERE "session_id" = $1 AND "version" = $2
        RETURNING 1
      ), ${insertEntries}`,
    // A top-level SELECT: TypeORM hands back a bare DELETE's rows wrapped with its count.
    remove: `
      WITH removed AS (DELETE FROM ${sessions} WHERE "session_id" = $1 RETURNING 1)
      SELECT count(*)::int AS "removed" FROM removed`,
  };
}
