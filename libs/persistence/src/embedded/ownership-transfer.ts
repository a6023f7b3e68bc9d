import type pg from 'pg';

/** Objects of the application's schemas, never the system's, nor members of an extension. */
const USER_SCHEMA = `n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'`;
const notInExtension = (oid: string) =>
  `NOT EXISTS (SELECT 1 FROM pg_depend e WHERE e.objid = ${oid} AND e.deptype = 'e')`;

/**
 * One ALTER … OWNER statement per object `$1` owns. Indexes, TOAST tables, row types and the
 * sequences behind serial/identity columns follow their table, so they are not listed.
 */
const STATEMENTS = `
  SELECT format('ALTER SCHEMA %I OWNER TO %I', n.nspname, $2::text)
    FROM pg_namespace n
   WHERE n.nspowner = $1::regrole AND ${USER_SCHEMA} AND ${notInExtension('n.oid')}
  UNION ALL
  SELECT format('ALTER %s %s OWNER TO %I',
           CASE c.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW'
             WHEN 'f' THEN 'FOREIGN TABLE' WHEN 'S' THEN 'SEQUENCE' WHEN 'c' THEN 'TYPE' ELSE 'TABLE' END,
           c.oid::regclass, $2::text)
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE c.relowner = $1::regrole AND ${USER_SCHEMA} AND ${notInExtension('c.oid')}
     AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S', 'c')
     AND NOT (c.relkind = 'S' AND EXISTS (
       SELECT 1 FROM pg_depend d
        WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype IN ('a', 'i')))
  UNION ALL
  SELECT format('ALTER ROUTINE %s OWNER TO %I', p.oid::regprocedure, $2::text)
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
   WHERE p.proowner = $1::regrole AND ${USER_SCHEMA} AND ${notInExtension('p.oid')}
  UNION ALL
  SELECT format('ALTER %s %s OWNER TO %I', CASE t.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END,
           t.oid::regtype, $2::text)
    FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
   WHERE t.typowner = $1::regrole AND ${USER_SCHEMA} AND ${notInExtension('t.oid')}
     AND t.typtype IN ('e', 'd', 'r')`;

/**
 * Gives `to` what `from` owns in the connected database's own schemas, in one transaction; returns how
 * many objects changed hands. Needed once per cluster made by an earlier version, which created the
 * schema as the superuser; REASSIGN OWNED cannot do it, as it refuses the bootstrap superuser's objects.
 */
export async function transferOwnership(client: pg.Client, from: string, to: string): Promise<number> {
  const { rows } = await client.query<{ format: string }>(STATEMENTS, [from, to]);
  if (rows.length === 0) return 0;
  await client.query('BEGIN');
  try {
    for (const { format } of rows) await client.query(format);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
  return rows.length;
}
