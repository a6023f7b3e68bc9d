/**
 * The entities are the schema's one description. After every migration has run:
 * - every table has an entity and every entity a table;
 * - TypeORM's schema builder finds nothing to change;
 * - a database TypeORM builds from the entities has the migrated database's catalog (columns,
 *   constraints with their expressions, indexes, storage options, triggers), except for the listed
 *   facts the entities cannot express (README, "What the entities cannot say").
 * Altered copies of the entities prove that both comparisons fail when the two descriptions part.
 */
import { migrations, plannerStatistics } from '@helios/migrations';
import { DataSource, EntitySchema, type EntitySchemaColumnOptions, type EntitySchemaOptions } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogFacts, factDiff, publicTables } from '../test/support/schema-catalog.js';
import { scratchServer, type ScratchServer } from '../test/support/scratch-server.js';
import { HELIOS_ENTITIES, heliosEntityOptions } from './entities.js';
import { AuditRecordEntity, type AuditRecordRow } from './governance/entities/audit-record.entity.js';
import { createScratchDatabase, type ScratchDatabase } from './testing/scratch-database.js';

/** The queue's own vacuum settings (migration PendingAutovacuum), listed before the analyze threshold. */
const QUEUE_VACUUM: Readonly<Record<string, string>> = {
  pending_evaluations:
    'autovacuum_vacuum_scale_factor=0, autovacuum_vacuum_threshold=5000, autovacuum_vacuum_cost_delay=0, ',
};

/**
 * What the migrations make and the entities cannot say: "-" facts are the migrated database's, "+"
 * facts the entity-built one's. Anything else in the difference is drift.
 */
const INEXPRESSIBLE = [
  // EntitySchema drops `generatedIdentity`: its identity columns are BY DEFAULT, the migrations' ALWAYS.
  ...[
    'budget_events.id',
    'limit_charges.id',
    'limit_charge_runs.id',
    'limit_charge_journal.id',
    'pending_evaluations.seq',
  ].flatMap((column) => [
    `- column ${column} bigint not null default - identity ALWAYS`,
    `+ column ${column} bigint not null default - identity BY DEFAULT`,
  ]),
  // TypeORM indexes have no INCLUDE columns; the entity declares it with `synchronize: false`.
  '- index CREATE INDEX limit_charges_bucket_at ON public.limit_charges USING btree (bucket_id, at_ms) INCLUDE (amount)',
  // An EntitySchema index has no method (USING gin); the entity declares it with `synchronize: false`.
  '- index CREATE INDEX helios_traces_labels ON public.helios_traces USING gin (labels)',
  // Table storage parameters (autovacuum settings) have no entity option.
  ...plannerStatistics.busyTables.map(
    (table) =>
      `- storage ${table} ${QUEUE_VACUUM[table] ?? ''}autovacuum_analyze_threshold=${plannerStatistics.analyzeThreshold}`,
  ),
  // Per-column statistics targets (migration PlannerStatistics) have no column option.
  ...plannerStatistics.noStatistics.flatMap(([table, columns]) =>
    columns.map((column) => `- statistics ${table}.${column} 0`),
  ),
  // Triggers (and the function behind them) are not part of an entity.
  '- trigger CREATE TRIGGER audit_records_append_only BEFORE DELETE OR UPDATE ON public.audit_records FOR EACH ROW EXECUTE FUNCTION audit_records_append_only()',
  '- trigger CREATE TRIGGER audit_records_no_truncate BEFORE TRUNCATE ON public.audit_records FOR EACH STATEMENT EXECUTE FUNCTION audit_records_append_only()',
].sort(byFact);

function byFact(a: string, b: string): number {
  return a.slice(2) < b.slice(2) ? -1 : a.slice(2) > b.slice(2) ? 1 : a < b ? -1 : 1;
}

function dataSourceFor(url: string, entities: readonly EntitySchema[]): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    ...heliosEntityOptions(),
    entities: [...entities],
    migrations: [...migrations],
    migrationsTransactionMode: 'each',
    poolSize: 2,
    logging: false,
  });
}

/** The SQL TypeORM's schema builder would run to make the database match `dataSource`'s entities. */
async function pendingSql(dataSource: DataSource): Promise<string[]> {
  const log = await dataSource.driver.createSchemaBuilder().log();
  return log.upQueries.map((query) => query.query);
}

const tableNames = (entities: readonly EntitySchema[]): string[] =>
  entities.map((entity) => entity.options.tableName ?? entity.options.name).sort();

type AuditOptions = EntitySchemaOptions<AuditRecordRow>;

/** The entity set with `audit_records` described as `change` says. */
function withAuditRecords(change: (options: AuditOptions) => AuditOptions): EntitySchema[] {
  return HELIOS_ENTITIES.map((entity) =>
    entity === AuditRecordEntity ? new EntitySchema(change(AuditRecordEntity.options)) : entity,
  );
}

/** `audit_records` with one column's description changed. */
function auditColumn(
  property: keyof AuditRecordRow,
  change: Partial<EntitySchemaColumnOptions>,
): (options: AuditOptions) => AuditOptions {
  return (options) => {
    const column = options.columns[property];
    if (column === undefined) throw new Error(`no column ${property}`);
    return { ...options, columns: { ...options.columns, [property]: { ...column, ...change } } };
  };
}

const ALTERATIONS: readonly (readonly [string, (options: AuditOptions) => AuditOptions, RegExp])[] = [
  [
    'a column dropped',
    ({ columns: { protocolVersion: _dropped, ...columns }, ...options }) => ({ ...options, columns }),
    /ALTER TABLE "audit_records" DROP COLUMN "protocol_version"/,
  ],
  [
    'a column made nullable',
    auditColumn('toolName', { nullable: true }),
    /ALTER TABLE "audit_records" ALTER COLUMN "tool_name" DROP NOT NULL/,
  ],
  [
    'a column type changed',
    auditColumn('upstreamHttpStatus', { type: 'bigint' }),
    /"upstream_http_status" bigint/,
  ],
  ['a default changed', auditColumn('origin', { default: 'sdk' }), /ALTER COLUMN "origin" SET DEFAULT 'sdk'/],
  [
    'an index missing',
    (options) => ({
      ...options,
      indices: options.indices?.filter((index) => index.name !== 'audit_records_origin'),
    }),
    /DROP INDEX .*"audit_records_origin"/,
  ],
  [
    'a CHECK missing',
    (options) => ({
      ...options,
      checks: options.checks?.filter((check) => check.name !== 'audit_records_record_kind_check'),
    }),
    /DROP CONSTRAINT "audit_records_record_kind_check"/,
  ],
];

describe('the entities and the migrations', () => {
  let server: ScratchServer;
  let migrated: DataSource;
  let migratedUrl: string;
  const opened: DataSource[] = [];
  const scratches: ScratchDatabase[] = [];

  const open = async (url: string, entities: readonly EntitySchema[]): Promise<DataSource> => {
    const dataSource = dataSourceFor(url, entities);
    await dataSource.initialize();
    opened.push(dataSource);
    return dataSource;
  };

  /** A fresh database whose schema TypeORM builds from `entities` (explicitly, for this comparison). */
  const builtFrom = async (entities: readonly EntitySchema[]): Promise<DataSource> => {
    const database = await createScratchDatabase(server.url);
    scratches.push(database);
    const dataSource = await open(database.url, entities);
    await dataSource.driver.createSchemaBuilder().build();
    return dataSource;
  };

  const catalogDiff = async (entities: readonly EntitySchema[]): Promise<string[]> => {
    const tables = tableNames(entities);
    const built = await builtFrom(entities);
    return factDiff(await catalogFacts(migrated, tables), await catalogFacts(built, tables)).sort(byFact);
  };

  beforeAll(async () => {
    server = await scratchServer();
    const database = await createScratchDatabase(server.url);
    scratches.push(database);
    migratedUrl = database.url;
    migrated = await open(migratedUrl, HELIOS_ENTITIES);
    await migrated.runMigrations();
  });
  afterAll(async () => {
    for (const dataSource of opened) if (dataSource.isInitialized) await dataSource.destroy();
    for (const database of scratches) await database.drop();
    await server?.stop();
  });

  it('give every table the migrations create an entity, and every entity a table', async () => {
    const tables = (await publicTables(migrated)).filter((table) => table !== 'migrations');
    expect(tableNames(HELIOS_ENTITIES)).toEqual(tables);
  });

  it('leave TypeORM nothing to change', async () => {
    const sql = await pendingSql(migrated);
    expect(sql, `entities and migrated schema differ; TypeORM would run:\n${sql.join(';\n')}`).toEqual([]);
  });

  it('match the catalog of a database built from the entities, save what entities cannot express', async () => {
    const diff = await catalogDiff(HELIOS_ENTITIES);
    expect(diff, `catalog facts differ:\n${diff.join('\n')}`).toEqual(INEXPRESSIBLE);
  });

  it.each(ALTERATIONS)('report drift when an entity has %s', async (_what, change, expected) => {
    const altered = await open(migratedUrl, withAuditRecords(change));
    const sql = await pendingSql(altered);
    expect(sql.join(';\n')).toMatch(expected);
  });

  it('report a changed CHECK expression through the catalog, which TypeORM compares by name only', async () => {
    const recordKind = (expression: string): string => expression.replace(", 'policy_reload'", '');
    const entities = withAuditRecords((options) => ({
      ...options,
      checks: options.checks?.map((check) =>
        check.name === 'audit_records_record_kind_check'
          ? { ...check, expression: recordKind(check.expression) }
          : check,
      ),
    }));
    const altered = await open(migratedUrl, entities);
    expect(await pendingSql(altered)).toEqual([]);
    const diff = await catalogDiff(entities);
    expect(diff.filter((fact) => !INEXPRESSIBLE.includes(fact))).toEqual([
      expect.stringMatching(/^- constraint audit_records\.audit_records_record_kind_check .*'policy_reload'/),
      expect.stringMatching(/^\+ constraint audit_records\.audit_records_record_kind_check /),
    ]);
  });
});
