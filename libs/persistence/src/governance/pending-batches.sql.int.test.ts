/**
 * The group-commit statements are prepared once per connection and PostgreSQL may then keep a generic
 * plan (one made without the parameters' values). The worst moment for such a plan is a freshly
 * migrated database, whose tables are empty: a plan made then is kept until statistics change. This
 * checks that even that plan reaches every table that grows by index, never by a scan of the table.
 */
import { describe, expect, it } from 'vitest';
import { databaseTargets, sharedDatabase } from '../../test/support/pg-databases.js';
import * as statements from './pending-batches.sql.js';
import { type NamedStatement } from './sql.js';

/** One-row counters: a sequential scan of them is the cheapest access there is. */
const SINGLETONS = new Set(['pending_backlog', 'pending_backlog_freed']);

function parameterCount(text: string): number {
  return Math.max(0, ...[...text.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])));
}

describe.each(databaseTargets)('group-commit statements on the %s database', (_name, makeDatabase) => {
  const db = sharedDatabase(makeDatabase);

  const all = Object.values(statements) as NamedStatement[];

  it('have distinct names', () => {
    expect(new Set(all.map((statement) => statement.name)).size).toBe(all.length);
  });

  it.each(all.map((statement) => [statement.name, statement] as const))(
    '%s: the generic plan on empty tables scans no growing table',
    async (_statementName, statement) => {
      const runner = db.dataSource.createQueryRunner();
      try {
        await runner.query(`SET plan_cache_mode = force_generic_plan`);
        await runner.query(`PREPARE probe AS ${statement.text}`);
        const count = parameterCount(statement.text);
        const args = count === 0 ? '' : `(${Array.from({ length: count }, () => 'NULL').join(', ')})`;
        const plan = ((await runner.query(`EXPLAIN EXECUTE probe${args}`)) as { 'QUERY PLAN': string }[])
          .map((row) => row['QUERY PLAN'])
          .join('\n');
        const scanned = [...plan.matchAll(/Seq Scan on (\w+)/g)].map((match) => match[1] as string);
        expect(scanned.filter((table) => !SINGLETONS.has(table))).toEqual([]);
        if (
          /pending_evaluations|evaluation_tombstones/.test(statement.text) &&
          /ANY\(\$1/.test(statement.text)
        )
          expect(plan).toMatch(/Index Scan|Bitmap Index Scan/);
      } finally {
        await runner.query(`DEALLOCATE ALL`).catch(() => undefined);
        await runner.query(`RESET plan_cache_mode`).catch(() => undefined);
        await runner.release();
      }
    },
  );
});
