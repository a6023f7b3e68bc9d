/**
 * What PostgreSQL's catalog says about a set of tables, one line per fact, so two databases can be
 * compared fact by fact: columns (type, nullability, default, identity), constraints (their full
 * definition, CHECK expressions included), indexes (INCLUDE and WHERE included), storage options,
 * columns' own statistics targets and triggers. TypeORM's schema builder compares less than this
 * (CHECKs by name only, index WHERE and INCLUDE not at all, identity ALWAYS vs BY DEFAULT not at all);
 * this is what catches the rest.
 */
import { type DataSource } from 'typeorm';

// A numeric default reads `0` when a migration wrote DEFAULT 0 and `'0'::bigint` when TypeORM wrote
// DEFAULT '0': the same constant of the column's type, so both are compared as `0`.
const FACTS = `
  SELECT format('column %s.%s %s %s default %s identity %s', c.table_name, c.column_name, c.data_type,
           CASE c.is_nullable WHEN 'YES' THEN 'null' ELSE 'not null' END,
           coalesce(regexp_replace(c.column_default, '^''(-?[0-9.]+)''::[a-z ]+$', '\\1'), '-'),
           coalesce(c.identity_generation, '-')) AS fact
  FROM information_schema.columns c
  WHERE c.table_schema = 'public' AND c.table_name = ANY($1::text[])
  UNION ALL
  SELECT format('constraint %s.%s %s', t.relname, k.conname, pg_get_constraintdef(k.oid))
  FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid
  WHERE t.relnamespace = 'public'::regnamespace AND t.relname = ANY($1::text[])
  UNION ALL
  SELECT format('index %s', i.indexdef)
  FROM pg_indexes i
  WHERE i.schemaname = 'public' AND i.tablename = ANY($1::text[])
  UNION ALL
  SELECT format('storage %s %s', t.relname, array_to_string(t.reloptions, ', '))
  FROM pg_class t
  WHERE t.relnamespace = 'public'::regnamespace AND t.relname = ANY($1::text[]) AND t.reloptions IS NOT NULL
  UNION ALL
  -- A column's own statistics target (-1, or NULL since PostgreSQL 17, is the default).
  SELECT format('statistics %s.%s %s', t.relname, a.attname, a.attstattarget)
  FROM pg_attribute a JOIN pg_class t ON t.oid = a.attrelid
  WHERE t.relnamespace = 'public'::regnamespace AND t.relname = ANY($1::text[]) AND t.relkind = 'r'
    AND a.attnum > 0 AND NOT a.attisdropped AND coalesce(a.attstattarget, -1) >= 0
  UNION ALL
  SELECT format('trigger %s', pg_get_triggerdef(g.oid))
  FROM pg_trigger g JOIN pg_class t ON t.oid = g.tgrelid
  WHERE NOT g.tgisinternal AND t.relnamespace = 'public'::regnamespace AND t.relname = ANY($1::text[])`;

/** The facts about `tables` in the database behind `dataSource`, sorted. */
export async function catalogFacts(dataSource: DataSource, tables: readonly string[]): Promise<string[]> {
  const rows = (await dataSource.query(FACTS, [[...tables]])) as { fact: string }[];
  return rows.map((row) => row.fact).sort();
}

/** The ordinary tables of the public schema, sorted. */
export async function publicTables(dataSource: DataSource): Promise<string[]> {
  const rows = (await dataSource.query(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  )) as { name: string }[];
  return rows.map((row) => row.name);
}

/** Facts only `expected` has ("- …") and facts only `actual` has ("+ …"). */
export function factDiff(expected: readonly string[], actual: readonly string[]): string[] {
  const inActual = new Set(actual);
  const inExpected = new Set(expected);
  return [
    ...expected.filter((fact) => !inActual.has(fact)).map((fact) => `- ${fact}`),
    ...actual.filter((fact) => !inExpected.has(fact)).map((fact) => `+ ${fact}`),
  ];
}
