/**
 * The few ways the governance stores talk to PostgreSQL: one statement on a pooled connection, or a
 * transaction whose statements all go through its own query runner (using the pool inside a
 * transaction would wait for a connection the transaction itself may be holding: a deadlock under load).
 */
import pg, { type Client, type Pool, type PoolClient } from 'pg';
import { type DataSource, type QueryRunner } from 'typeorm';
import { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';

type IsolationLevel = 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';

export interface Rows<T> {
  readonly rows: T[];
  readonly affected: number;
}

/**
 * pg returns bigint and numeric columns (money: whole micro-units of any size) as strings of digits;
 * this is where they become bigints again, exactly. Bigints go back as strings too (`String(n)`).
 */
export function toBigInt(value: string | number | bigint | null | undefined): bigint {
  return value === null || value === undefined ? 0n : BigInt(value);
}

/** Epoch-millisecond bigint columns fit a JS number exactly. */
export function toMs(value: string | number | null | undefined): number | null {
  return value === null || value === undefined ? null : Number(value);
}

/** Runs one statement through `runner` and returns its rows and affected-row count whatever the command. */
export async function run<T>(
  runner: QueryRunner,
  sql: string,
  params: readonly unknown[] = [],
): Promise<Rows<T>> {
  const result = (await runner.query(sql, [...params], true)) as { records?: T[]; affected?: number };
  return { rows: result.records ?? [], affected: result.affected ?? 0 };
}

/** One statement on a pooled connection (autocommit). */
export async function runPooled<T>(
  dataSource: DataSource,
  sql: string,
  params: readonly unknown[] = [],
): Promise<Rows<T>> {
  const runner = dataSource.createQueryRunner();
  try {
    return await run<T>(runner, sql, params);
  } finally {
    await runner.release();
  }
}

/**
 * A statement run thousands of times a second: prepared once per connection under its name, so
 * PostgreSQL parses it once instead of at every run and, after a few runs, may keep one generic plan
 * instead of planning each run (parsing and planning were about half a batch statement's cost).
 * pending-batches.sql.int.test.ts checks that even a generic plan made on empty tables reaches the
 * growing tables by index only.
 */
export interface NamedStatement {
  readonly name: string;
  readonly text: string;
}

/**
 * One named statement on a pooled connection (autocommit) straight on the pg pool: no query runner.
 * The connection comes from the driver's public `obtainMasterConnection()` and is handled as
 * `pool.query()` handles it: a connection error while it is out releases it (so it cannot go unhandled),
 * and a connection released with an error is discarded by pg rather than reused.
 */
export async function runOnPool<T>(
  dataSource: DataSource,
  statement: NamedStatement,
  params: readonly unknown[],
): Promise<Rows<T>> {
  const [client, release] = (await postgresDriver(dataSource).obtainMasterConnection()) as [
    PoolClient,
    (error?: Error) => void,
  ];
  let released = false;
  const releaseOnce = (error?: Error): void => {
    if (released) return;
    released = true;
    client.removeListener('error', releaseOnce);
    release(error);
  };
  client.once('error', releaseOnce);
  try {
    const result = await client.query({ name: statement.name, text: statement.text, values: [...params] });
    releaseOnce();
    return { rows: result.rows as T[], affected: result.rowCount ?? 0 };
  } catch (error) {
    releaseOnce(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
}

/**
 * A connection of its own, outside the pool and with the pool's settings, for a session that must stay
 * open (the limit authority's lease): taken from the pool it would starve a pool of one.
 */
export async function dedicatedClient(dataSource: DataSource): Promise<Client> {
  const pool = postgresDriver(dataSource).master as Pool;
  const client = new pg.Client(pool.options);
  await client.connect();
  return client;
}

function postgresDriver(dataSource: DataSource): PostgresDriver {
  const driver = dataSource.driver;
  if (!(driver instanceof PostgresDriver)) {
    throw new TypeError(`the governance stores need a PostgreSQL DataSource, not ${dataSource.options.type}`);
  }
  return driver;
}

/** deadlock_detected and serialization_failure: the transaction did nothing and can simply run again. */
const RETRYABLE = new Set(['40P01', '40001']);
const MAX_ATTEMPTS = 3;

/**
 * {@link runOnPool} for one statement that is a whole transaction (a server-side function): a deadlock
 * or serialization failure undid all of it, so it simply runs again.
 */
export async function runOnPoolRetrying<T>(
  dataSource: DataSource,
  statement: NamedStatement,
  params: readonly unknown[],
): Promise<Rows<T>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnPool<T>(dataSource, statement, params);
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !RETRYABLE.has(sqlState(error))) throw error;
    }
  }
}

/**
 * Runs `work` in one transaction on one connection. A deadlock or serialization failure (which sorted
 * lock order should prevent, but a retry is cheaper than a 500) reruns the whole transaction.
 */
export async function inTransaction<T>(
  dataSource: DataSource,
  work: (runner: QueryRunner) => Promise<T>,
  isolation: IsolationLevel = 'READ COMMITTED',
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction(isolation);
      const out = await work(runner);
      await runner.commitTransaction();
      return out;
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      if (attempt >= MAX_ATTEMPTS || !RETRYABLE.has(sqlState(error))) throw error;
    } finally {
      await runner.release();
    }
  }
}

/** The SQLSTATE of a pg error (TypeORM wraps it in QueryFailedError, keeping the fields). */
export function sqlState(error: unknown): string {
  const code = (error as { code?: unknown; driverError?: { code?: unknown } } | null)?.code;
  const driverCode = (error as { driverError?: { code?: unknown } } | null)?.driverError?.code;
  return typeof code === 'string' ? code : typeof driverCode === 'string' ? driverCode : '';
}
