/**
 * The configurable schema on real PostgreSQL: the migrations run into a schema of its own (on a
 * DataSource whose connections start with `search_path` set to it, PersistenceConfig.searchPathOption),
 * and the observability stores, on an ordinary DataSource (search_path `public`), read and write there
 * through their schema-qualified statements, and nowhere else.
 */
import { migrations } from '@helios/migrations';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, sharedDatabase } from '../../test/support/pg-databases.js';
import { heliosEntityOptions } from '../entities.js';
import { PgAnnotationStore } from './pg-annotation-store.js';
import { PgPromptRegistry } from './pg-prompt-registry.js';
import { PgTraceStore } from './pg-trace-store.js';
import { PersistenceConfig } from './persistence-config.js';
import { fixtureTrace } from './trace-fixtures.js';

// Mixed case: the name is always quoted, so it stays exactly as written.
const SCHEMA = 'Helios_Tenant';
const quiet = { warn: () => undefined, error: () => undefined };

async function tablesOf(dataSource: DataSource, schema: string): Promise<string[]> {
  const rows = (await dataSource.query(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY table_name`,
    [schema],
  )) as { name: string }[];
  return rows.map((row) => row.name);
}

describe.each(databaseTargets)('the observability stores in schema %s', (_name, makeDatabase) => {
  const db = sharedDatabase(makeDatabase);
  const config = new PersistenceConfig({ schema: SCHEMA });
  let inSchema: DataSource;

  beforeAll(async () => {
    await db.dataSource.query(`CREATE SCHEMA "${SCHEMA}"`);
    inSchema = new DataSource({
      type: 'postgres',
      url: db.url,
      ...heliosEntityOptions(),
      extra: { options: config.searchPathOption() },
      migrations: [...migrations],
      migrationsTransactionMode: 'each',
      poolSize: 2,
      logging: false,
    });
    await inSchema.initialize();
    await inSchema.runMigrations();
  });
  afterAll(async () => {
    if (inSchema?.isInitialized) await inSchema.destroy();
  });

  it('gets every table of the migrations, the migrations table included', async () => {
    const publicTables = await tablesOf(db.dataSource, 'public');
    expect(publicTables).toContain('helios_traces');
    expect(await tablesOf(db.dataSource, SCHEMA)).toEqual(publicTables);
    const shown = (await inSchema.query(`SHOW search_path`)) as { search_path: string }[];
    expect(shown).toEqual([{ search_path: `"${SCHEMA}"` }]);
  });

  it('writes and reads annotations, prompts and traces in that schema only', async () => {
    const traces = new PgTraceStore(db.dataSource, { logger: quiet, config });
    const annotations = new PgAnnotationStore(db.dataSource, config);
    const prompts = new PgPromptRegistry(db.dataSource, config);
    const trace = fixtureTrace({ name: 'tenant-run', spans: [{ tokens: [1, 2] }] });
    traces.onTrace(trace);
    await traces.close();
    expect(traces.stats()).toMatchObject({ written: 1, dropped: 0 });
    expect(await traces.getTrace(trace.id)).toEqual(trace);
    await annotations.upsertAnnotation({
      subjectId: trace.id,
      label: 'ok',
      authorKind: 'HUMAN',
      authorId: 'a',
    });
    expect(await annotations.findBySubject(trace.id)).toHaveLength(1);
    expect((await traces.listTraces({ hasAnnotation: true })).items.map((item) => item.id)).toEqual([
      trace.id,
    ]);
    expect(await traces.summarize({ groupBy: 'name' })).toMatchObject([{ key: 'tenant-run', traces: 1 }]);
    await prompts.create('greet', 'Hello {{name}}', { labels: ['production'] });
    expect(await prompts.render('greet', { label: 'production' }, { name: 'tenant' })).toBe('Hello tenant');

    const count = async (schema: string, table: string): Promise<number> => {
      const rows = (await db.dataSource.query(`SELECT count(*)::int AS n FROM "${schema}"."${table}"`)) as {
        n: number;
      }[];
      return rows[0]?.n ?? -1;
    };
    for (const table of ['helios_traces', 'helios_spans', 'helios_annotations', 'helios_prompts']) {
      expect(await count(SCHEMA, table)).toBe(1);
      expect(await count('public', table)).toBe(0);
    }
    const publicStore = new PgTraceStore(db.dataSource, { logger: quiet });
    expect(await publicStore.getTrace(trace.id)).toBeUndefined();
    expect(await new PgPromptRegistry(db.dataSource).get('greet')).toBeUndefined();
  });
});
