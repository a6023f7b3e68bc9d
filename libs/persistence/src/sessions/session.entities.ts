/**
 * `helios_sessions` and `helios_session_entries` (migration SessionStore1765411200000): a session's
 * version and its conversation entries in wire form.
 */
import { EntitySchema } from 'typeorm';

export interface SessionRow {
  readonly sessionId: string;
  readonly version: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface SessionEntryRow {
  readonly sessionId: string;
  readonly seq: string;
  readonly kind: string;
  readonly body: unknown;
  readonly createdAt: Date;
}

export const SessionEntity = new EntitySchema<SessionRow>({
  name: 'Session',
  tableName: 'helios_sessions',
  columns: {
    sessionId: {
      name: 'session_id',
      type: 'varchar',
      length: 128,
      primary: true,
      primaryKeyConstraintName: 'helios_sessions_pkey',
    },
    version: { type: 'bigint', default: 0 },
    createdAt: { name: 'created_at', type: 'timestamptz', default: () => 'now()' },
    updatedAt: { name: 'updated_at', type: 'timestamptz', default: () => 'now()' },
  },
  checks: [{ name: 'helios_sessions_version_check', expression: '"version" >= 0' }],
  indices: [{ name: 'helios_sessions_updated', columns: ['updatedAt'] }],
});

export const SessionEntryEntity = new EntitySchema<SessionEntryRow>({
  name: 'SessionEntry',
  tableName: 'helios_session_entries',
  columns: {
    sessionId: {
      name: 'session_id',
      type: 'varchar',
      length: 128,
      primary: true,
      primaryKeyConstraintName: 'helios_session_entries_pkey',
    },
    seq: { type: 'bigint', primary: true, primaryKeyConstraintName: 'helios_session_entries_pkey' },
    kind: { type: 'varchar', length: 32 },
    body: { type: 'json' },
    createdAt: { name: 'created_at', type: 'timestamptz', default: () => 'now()' },
  },
  checks: [
    { name: 'helios_session_entries_seq_check', expression: '"seq" >= 1' },
    {
      name: 'helios_session_entries_kind_check',
      expression: `"kind" IN ('message', 'history', 'question', 'questionClosed')`,
    },
  ],
  foreignKeys: [
    {
      name: 'helios_session_entries_session_fkey',
      target: SessionEntity,
      columnNames: ['sessionId'],
      referencedColumnNames: ['sessionId'],
      onDelete: 'CASCADE',
    },
  ],
});

export const SESSION_ENTITIES = [SessionEntity, SessionEntryEntity] as const;
