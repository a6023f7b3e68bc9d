/**
 * Rebuilds the buckets of an owner that died (its key is held exclusively by the caller, so nothing it
 * decided can still land). Its charges are rows already; its holds are what it answered /evaluate
 * for: the unexpired pending evaluations not yet committed, plus hold rows placed on the shared path
 * before it claimed the bucket. The buckets go back to the shared path, claimable at once, a slice of
 * them per statement (authority.sql.ts, DEMOTE_SLICE).
 */
import { bucketId } from '@helios/governance';
import { type DataSource } from 'typeorm';
import { decodePending, type EncodedPending } from '../pending-codec.js';
import { runOnPool, runOnPoolRetrying } from '../sql.js';
import { DEMOTE, demoteParams, HOLD_ROWS, inSlices, LIVE_PENDING, OWNED_BY } from './authority.sql.js';
import { type HoldRow } from './rows.js';

export async function takeOver(dataSource: DataSource, owner: string, nowMs: number): Promise<number> {
  const { rows: buckets } = await runOnPool<{ bucket_id: string; last_activity_ms: string }>(
    dataSource,
    OWNED_BY,
    [owner],
  );
  if (buckets.length === 0) return 0;
  const ids = buckets.map((row) => row.bucket_id);
  const holds = new Map<string, HoldRow>();
  const { rows: held } = await runOnPool<HoldRow>(dataSource, HOLD_ROWS, [ids, nowMs]);
  for (const row of held) holds.set(`${row.r}\u001f${row.b}`, { ...row, e: Number(row.e) });
  for (const row of await pendingHolds(dataSource, new Set(ids), nowMs)) {
    const key = `${row.r}\u001f${row.b}`;
    if (!holds.has(key)) holds.set(key, row);
  }
  const allHolds = [...holds.values()];
  await inSlices(buckets, async (slice) => {
    const sliceIds = slice.map((row) => row.bucket_id);
    const inSlice = new Set(sliceIds);
    await runOnPoolRetrying(
      dataSource,
      DEMOTE,
      demoteParams(
        owner,
        sliceIds,
        slice.map((row) => Number(row.last_activity_ms)),
        slice.map(() => null),
        { holds: allHolds.filter((hold) => inSlice.has(hold.b)), charges: [], ledger: [], commits: [] },
        nowMs,
        null,
      ),
    );
  });
  return ids.length;
}

/** The holds live pending evaluations place on these buckets (a call's checks on one bucket summed). */
async function pendingHolds(
  dataSource: DataSource,
  ids: ReadonlySet<string>,
  nowMs: number,
): Promise<HoldRow[]> {
  const { rows } = await runOnPool<{ payload: EncodedPending }>(dataSource, LIVE_PENDING, [nowMs]);
  const holds = new Map<string, HoldRow>();
  for (const row of rows) {
    const entry = decodePending(row.payload, null);
    if (entry.reservationId === undefined) continue;
    for (const charge of entry.charges) {
      const id = bucketId(charge);
      if (!ids.has(id)) continue;
      const key = `${entry.reservationId}\u001f${id}`;
      const amount = BigInt(holds.get(key)?.a ?? '0') + charge.amount;
      holds.set(key, { r: entry.reservationId, b: id, a: amount.toString(), e: entry.expiresAtMs });
    }
  }
  return [...holds.values()];
}
