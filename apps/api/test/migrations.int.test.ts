import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load-config.js';
import {
  migrateDown,
  migrateUp,
  openDatabase,
  pendingMigrationCount,
  type Database,
} from '../src/persistence/database.js';
import { targetFactories, type DatabaseTarget } from './support/databases.js';

const quiet = { info: () => undefined, warn: () => undefined };

async function tableExists(db: Database, table: string): Promise<boolean> {
  const rows = (await db.dataSource.query('SELECT to_regclass($1) AS t', [table])) as { t: string | null }[];
  return rows[0]?.t !== null;
}

describe.each(targetFactories)('migrations on the %s database', (_name, makeTarget) => {
  let target: DatabaseTarget;
  let db: Database;

  beforeAll(async () => {
    target = await makeTarget();
    db = await openDatabase({ ...parseConfig('').database, ...target.database }, quiet);
  });

  afterAll(async () => {
    await db?.close();
    await target?.dispose();
  });

  it('go up, down and up again, leaving the schema each step promises', async () => {
    const total = db.dataSource.migrations.length;
    expect(await pendingMigrationCount(db.dataSource)).toBe(total);

    expect(await migrateUp(db.dataSource)).toHaveLength(total);
    expect(await pendingMigrationCount(db.dataSource)).toBe(0);
    expect(await tableExists(db, 'instance_metadata')).toBe(true);
    expect(await migrateUp(db.dataSource)).toEqual([]);

    for (let i = 0; i < total; i++) expect(await migrateDown(db.dataSource)).toBe(true);
    expect(await migrateDown(db.dataSource)).toBe(false);
    expect(await tableExists(db, 'instance_metadata')).toBe(false);
    expect(await pendingMigrationCount(db.dataSource)).toBe(total);

    expect(await migrateUp(db.dataSource)).toHaveLength(total);
    expect(await tableExists(db, 'instance_metadata')).toBe(true);
  });

  it('never apply a migration twice when several processes start at once', async () => {
    for (let i = 0; i < db.dataSource.migrations.length; i++) await migrateDown(db.dataSource);
    const runs = await Promise.all([
      migrateUp(db.dataSource),
      migrateUp(db.dataSource),
      migrateUp(db.dataSource),
    ]);
    expect(runs.flat()).toHaveLength(db.dataSource.migrations.length);
    expect(await pendingMigrationCount(db.dataSource)).toBe(0);
  });

  it('enforce the single instance row', async () => {
    await db.dataSource.query(`INSERT INTO instance_metadata (version) VALUES ('a')`);
    await expect(db.dataSource.query(`INSERT INTO instance_metadata (version) VALUES ('b')`)).rejects.toThrow(
      /instance_metadata_singleton/,
    );
    await expect(db.dataSource.query(`UPDATE instance_metadata SET singleton = false`)).rejects.toThrow(
      /instance_metadata_singleton_true/,
    );
  });

  it('keep the audit trail append-only: no update, no delete outside the retention sweep, no truncate', async () => {
    const insert = `INSERT INTO audit_records (id, "timestamp", tool_name, policy_decision) VALUES ($1, now(), 'shell', 'allow')`;
    const id = '00000000-0000-4000-8000-000000000001';
    await db.dataSource.query(insert, [id]);
    await expect(db.dataSource.query(`UPDATE audit_records SET tool_name = 'x'`)).rejects.toThrow(
      /append-only/,
    );
    await expect(db.dataSource.query(`DELETE FROM audit_records`)).rejects.toThrow(/append-only/);
    await expect(db.dataSource.query(`TRUNCATE audit_records`)).rejects.toThrow(/append-only/);
    await db.dataSource.transaction(async (manager) => {
      await manager.query(`SET LOCAL helios.audit_sweep = 'on'`);
      await manager.query(`DELETE FROM audit_records WHERE id = $1`, [id]);
    });
    expect(await db.dataSource.query(`SELECT count(*)::int AS n FROM audit_records`)).toEqual([{ n: 0 }]);
    // The sweep permission ends with its transaction.
    await db.dataSource.query(insert, [id]);
    await expect(db.dataSource.query(`DELETE FROM audit_records`)).rejects.toThrow(/append-only/);
  });

  it('refuse an audit record of an unknown kind', async () => {
    await expect(
      db.dataSource.query(
        `INSERT INTO audit_records (id, "timestamp", tool_name, policy_decision, record_kind)
         VALUES (gen_random_uuid(), now(), 't', 'allow', 'gossip')`,
      ),
    ).rejects.toThrow(/check constraint/);
  });
});
