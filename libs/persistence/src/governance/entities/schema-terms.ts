/** Pieces of the governance entities spelled once, as the migrations spell them. */

/** `"column" IN ('a', 'b', …)`: a text column restricted to a closed set of values. */
export function oneOf(column: string, values: readonly string[]): string {
  return `"${column}" IN (${values.map((value) => `'${value}'`).join(', ')})`;
}

/** `"column" >= min`: a counter, amount or index that cannot go below `min`. */
export function atLeast(column: string, min: number): string {
  return `"${column}" >= ${min}`;
}

/**
 * `generated` for a `GENERATED … AS IDENTITY` column. EntitySchema's options type lists only
 * 'increment' | 'uuid' | 'rowid', but it hands the strategy to TypeORM unchanged and the PostgreSQL
 * driver knows 'identity' (information_schema's is_identity). EntitySchema cannot say ALWAYS (it
 * drops `generatedIdentity`), so an entity-built table would say BY DEFAULT; the migrations say
 * ALWAYS. The schema-drift test lists that difference.
 */
export const IDENTITY = 'identity' as unknown as 'increment';

/** A table's `id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY`, with PostgreSQL's constraint name. */
export const identityKey = (table: string) =>
  ({
    type: 'bigint',
    primary: true,
    generated: IDENTITY,
    primaryKeyConstraintName: `${table}_pkey`,
  }) as const;

/**
 * A money column: whole micro-units of any size (migration MoneyNumeric1764979200000 says why
 * `numeric(1000, 0)`). pg returns it as a string of digits; `BigInt()` reads it exactly.
 */
export const MICRO_UNITS = { type: 'numeric', precision: 1000, scale: 0 } as const;
