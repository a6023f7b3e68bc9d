/**
 * The owner's charge journal (migration OwnerChargeJournal1765843200000): charges decided in memory on
 * several buckets are one journal row; compaction turns it into a run per bucket; handing back one of
 * its buckets turns the whole row into runs and that bucket's into charge rows; a dead owner's journal
 * is read by its takeover; and the migration goes down (the journal becomes runs) and up again.
 */
import { type CommitCharge } from '@helios/governance';
import { OwnerChargeJournal1765843200000 } from '@helios/migrations';
import { type DataSource } from 'typeorm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { catalogFacts } from '../../../test/support/schema-catalog.js';
import { databaseTargets, sharedDatabase } from '../../../test/support/pg-databases.js';
import { PgLimitStore } from '../pg-limit-store.js';
import { inTransaction } from '../sql.js';
import { DEMOTE_SLICE } from './authority.sql.js';
import { LimitAuthority } from './limit-authority.js';

const TABLES = ['limit_buckets', 'limit_charge_journal', 'limit_charge_runs', 'limit_charges'];
const HOUR = 3_600_000;

/** A per-sender rate limit's charge of one call. */
const senderCharge = (sender: string): CommitCharge => ({
  family: 'rate',
  key: `sender:${sender}:rule:0`,
  epoch: 0,
  amount: 1n,
  limit: 100n,
  window: { type: 'sliding', ms: HOUR },
  onBreach: 'refuse',
  senderScoped: true,
});
const bucketOf = (sender: string): string => `rate|0|sender:${sender}:rule:0`;

/** The charges `limit_charge_entries` shows per bucket (owned or not: journal, runs and rows alike). */
async function entries(dataSource: DataSource, prefix: string): Promise<Record<string, number>> {
  const rows = (await dataSource.query(
    `SELECT "bucket_id" AS "b", count(*)::int AS "n" FROM "limit_charge_entries"
     WHERE "bucket_id" LIKE $1 GROUP BY 1 ORDER BY 1`,
    [`${prefix}%`],
  )) as { b: string; n: number }[];
  return Object.fromEntries(rows.map((row) => [row.b, row.n]));
}

async function count(dataSource: DataSource, table: string, where = 'true'): Promise<number> {
  const [row] = (await dataSource.query(`SELECT count(*)::int AS "n" FROM "${table}" WHERE ${where}`)) as {
    n: number;
  }[];
  return row?.n ?? 0;
}

/** Shared buckets' sums as their charge rows say (handed back: sums exact, no journal, no runs). */
async function shared(dataSource: DataSource, ids: readonly string[]): Promise<unknown[]> {
  return dataSource.query(
    `SELECT b."bucket_id", b."owner", b."charge_count"::int AS "count",
            (SELECT count(*)::int FROM "limit_charges" c WHERE c."bucket_id" = b."bucket_id") AS "rows",
            (SELECT count(*)::int FROM "limit_charge_runs" r WHERE r."bucket_id" = b."bucket_id") AS "runs",
            (SELECT count(*)::int FROM "limit_charge_journal" j WHERE b."bucket_id" = ANY(j."bucket_ids")) AS "journal"
     FROM "limit_buckets" b WHERE b."bucket_id" = ANY($1::text[]) ORDER BY 1`,
    [ids],
  );
}

describe.each(databaseTargets)('the owner charge journal on the %s database', (_name, makeDatabase) => {
  const db = sharedDatabase(makeDatabase);
  const authorities: LimitAuthority[] = [];
  // The clock of work no call drives (a takeover's window) is the system's: the calls use it too.
  let nowMs = Date.now();

  afterEach(async () => {
    for (const authority of authorities.splice(0)) await authority.close();
  });

  async function owner(rejoinDelayMs?: number) {
    const dataSource = db.dataSource;
    const authority = await LimitAuthority.start(dataSource, {
      sweepIntervalMs: 60_000,
      ...(rejoinDelayMs === undefined ? {} : { rejoinDelayMs }),
    });
    authorities.push(authority);
    return { authority, store: new PgLimitStore(dataSource, { authority }) };
  }

  /** One call per sender, reserved then committed together (a commit without an evaluation id). */
  async function charge(store: PgLimitStore, senders: readonly string[], tag: string): Promise<void> {
    nowMs += 1_000;
    const checks = senders.map(senderCharge);
    const request = { reservationId: tag, checks, expiresAtMs: nowMs + 60_000, maxSenderKeys: 100_000 };
    expect((await store.reserve(request, nowMs)).type).toBe('reserved');
    await store.commit(tag, checks, { auditRecordId: `${tag}-rec`, toolName: 't', origin: 'sdk' }, nowMs);
  }

  it('writes one journal row for a commit on several buckets, and compaction makes it a run per bucket', async () => {
    const { authority, store } = await owner();
    await charge(store, ['a1', 'a2', 'a3'], 'j-1');
    await charge(store, ['a1', 'a2'], 'j-2');
    expect(await count(db.dataSource, 'limit_charge_journal', `"owner" = '${authority.owner}'`)).toBe(2);
    expect(await count(db.dataSource, 'limit_charge_runs', `"bucket_id" LIKE 'rate|0|sender:a%'`)).toBe(0);
    const counted = { [bucketOf('a1')]: 2, [bucketOf('a2')]: 2, [bucketOf('a3')]: 1 };
    expect(await entries(db.dataSource, 'rate|0|sender:a')).toEqual(counted);

    const [{ runs }] = (await db.dataSource.query(
      `SELECT "helios_limit_compact_journal"($1::text, $2::bigint[])::int AS "runs"`,
      [authority.owner, authority.current.chargeFenceKeys()],
    )) as [{ runs: number }];
    expect(runs).toBe(3);
    expect(await count(db.dataSource, 'limit_charge_journal', `"owner" = '${authority.owner}'`)).toBe(0);
    expect(await entries(db.dataSource, 'rate|0|sender:a')).toEqual(counted);

    await authority.close();
    expect(await shared(db.dataSource, Object.keys(counted))).toEqual(
      Object.entries(counted).map(([id, n]) => ({
        bucket_id: id,
        owner: null,
        count: n,
        rows: n,
        runs: 0,
        journal: 0,
      })),
    );
  });

  it('handing back one bucket of a journal row makes the row runs; the others still count once', async () => {
    const { authority, store } = await owner();
    await charge(store, ['b1', 'b2'], 'k-1');
    await authority.current.handBack([bucketOf('b1')]);
    expect(await shared(db.dataSource, [bucketOf('b1')])).toEqual([
      { bucket_id: bucketOf('b1'), owner: null, count: 1, rows: 1, runs: 0, journal: 0 },
    ]);
    // b2 stays owned, its charge a run now; another charge on it goes to the journal.
    expect(await count(db.dataSource, 'limit_charge_runs', `"bucket_id" = '${bucketOf('b2')}'`)).toBe(1);
    await charge(store, ['b2'], 'k-2');
    expect(await entries(db.dataSource, 'rate|0|sender:b')).toEqual({
      [bucketOf('b1')]: 1,
      [bucketOf('b2')]: 2,
    });
    await authority.close();
    expect(await shared(db.dataSource, [bucketOf('b2')])).toEqual([
      { bucket_id: bucketOf('b2'), owner: null, count: 2, rows: 2, runs: 0, journal: 0 },
    ]);
  });

  it("rebuilds a dead owner's buckets from its journal", async () => {
    // Its lease is killed below, and it stays down (a killed process does not rejoin).
    const dead = await owner(3_600_000);
    await charge(dead.store, ['c1', 'c2'], 'd-1');
    await charge(dead.store, ['c2'], 'd-2');
    // "kill -9" of its lease: its key is free, so another process may take its buckets over.
    await db.dataSource.query(`SELECT pg_terminate_backend($1)`, [dead.authority.leaseBackendPid]);
    await vi.waitFor(() => expect(dead.authority.isActive).toBe(false));
    expect(await count(db.dataSource, 'limit_charge_journal', `"owner" = '${dead.authority.owner}'`)).toBe(2);
    const heir = await owner();
    await heir.authority.current.recoverDeadOwners();
    expect(await shared(db.dataSource, [bucketOf('c1'), bucketOf('c2')])).toEqual([
      { bucket_id: bucketOf('c1'), owner: null, count: 1, rows: 1, runs: 0, journal: 0 },
      { bucket_id: bucketOf('c2'), owner: null, count: 2, rows: 2, runs: 0, journal: 0 },
    ]);
  });

  /** `count` senders charged once each, 16 to a call; returns their bucket ids. */
  async function chargeMany(store: PgLimitStore, prefix: string, count: number): Promise<string[]> {
    const senders = Array.from({ length: count }, (_, i) => `${prefix}${i}`);
    for (let i = 0; i < count; i += 16) await charge(store, senders.slice(i, i + 16), `${prefix}-${i}`);
    return senders.map(bucketOf);
  }

  /** The buckets among `ids` that are shared with exactly one charge row each, and nothing else left. */
  async function sharedWithOneCharge(ids: readonly string[]): Promise<number> {
    const [row] = (await db.dataSource.query(
      `SELECT count(*)::int AS "n" FROM "limit_buckets" b
       WHERE b."bucket_id" = ANY($1::text[]) AND b."owner" IS NULL AND b."charge_count" = 1
         AND (SELECT count(*) FROM "limit_charges" c WHERE c."bucket_id" = b."bucket_id") = 1
         AND NOT EXISTS (SELECT 1 FROM "limit_charge_runs" r WHERE r."bucket_id" = b."bucket_id")`,
      [ids],
    )) as { n: number }[];
    return row?.n ?? 0;
  }

  it(`hands back more buckets than one statement takes (${DEMOTE_SLICE}), a slice at a time`, async () => {
    const { authority, store } = await owner();
    const ids = await chargeMany(store, 's', DEMOTE_SLICE * 2 + 100);
    await authority.close();
    expect(await sharedWithOneCharge(ids)).toBe(ids.length);
    expect(await count(db.dataSource, 'limit_charge_journal', `"owner" = '${authority.owner}'`)).toBe(0);
  });

  it(`takes over a dead owner's ${DEMOTE_SLICE * 2 + 100} buckets, a slice at a time`, async () => {
    const dead = await owner(3_600_000);
    const ids = await chargeMany(dead.store, 'k', DEMOTE_SLICE * 2 + 100);
    await db.dataSource.query(`SELECT pg_terminate_backend($1)`, [dead.authority.leaseBackendPid]);
    await vi.waitFor(() => expect(dead.authority.isActive).toBe(false));
    const heir = await owner();
    await heir.authority.current.recoverDeadOwners();
    expect(await sharedWithOneCharge(ids)).toBe(ids.length);
  });

  it('goes down (the journal becomes runs) and up again while an owner holds journal rows', async () => {
    const { authority, store } = await owner();
    await charge(store, ['m1', 'm2'], 'm-1');
    const factsBefore = await catalogFacts(db.dataSource, TABLES);
    const migration = new OwnerChargeJournal1765843200000();
    await inTransaction(db.dataSource, (runner) => migration.down(runner));
    const runs = `SELECT "bucket_id", "reservation_ids" FROM "limit_charge_runs" WHERE "bucket_id" LIKE 'rate|0|sender:m%' ORDER BY 1`;
    expect(await db.dataSource.query(runs)).toEqual([
      { bucket_id: bucketOf('m1'), reservation_ids: ['m-1'] },
      { bucket_id: bucketOf('m2'), reservation_ids: ['m-1'] },
    ]);
    await inTransaction(db.dataSource, (runner) => migration.up(runner));
    expect(await catalogFacts(db.dataSource, TABLES)).toEqual(factsBefore);
    await charge(store, ['m1'], 'm-2');
    await authority.close();
    expect(await shared(db.dataSource, [bucketOf('m1'), bucketOf('m2')])).toEqual([
      { bucket_id: bucketOf('m1'), owner: null, count: 2, rows: 2, runs: 0, journal: 0 },
      { bucket_id: bucketOf('m2'), owner: null, count: 1, rows: 1, runs: 0, journal: 0 },
    ]);
  });
});
