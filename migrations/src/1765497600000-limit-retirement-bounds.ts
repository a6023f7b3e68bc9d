import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { APPLY, PREPARE, STATES } from './1765152000000-limit-running-sums.js';

/**
 * Exact retirement when callers' clocks disagree, and retirement scans that start at the bucket's own
 * lower bound.
 *
 * `oldest_ms` is the bound retirement trusts: a sliding bucket retires charges once `oldest_ms` leaves
 * the window. A commit kept the first value it found, so a charge committed at an earlier instant than
 * the bucket's oldest (another process's clock, or this one's stepped back) was retired late, when the
 * later charge left, and counted past its window meanwhile. A commit now lowers `oldest_ms` to its own
 * instant when that is earlier, and this migration recomputes both bounds once from the rows.
 *
 * With that invariant (every live charge is at or after `oldest_ms`, every live hold expires at or
 * after `hold_expiry_ms`), the retiring deletes and peek's sums start their index scans there instead of
 * at the start of the bucket's range, which holds the dead entries of everything retired since the last
 * VACUUM (tens of thousands for a 1 s window at 1,000 calls/s).
 *
 * The three function bodies are the previous migration's with exactly these edits (each must match
 * once), so the change reads as its diff.
 */
const EDITS: readonly (readonly [text: string, edits: readonly (readonly [from: string, to: string])[]])[] = [
  [
    STATES,
    [
      [
        `c."at_ms" <= p_now - b."window_ms"), 0) ELSE 0 END,`,
        `c."at_ms" >= b."oldest_ms" AND c."at_ms" <= p_now - b."window_ms"), 0) ELSE 0 END,`,
      ],
      [
        `h."expires_at_ms" <= p_now), 0) ELSE 0 END,`,
        `h."expires_at_ms" >= b."hold_expiry_ms" AND h."expires_at_ms" <= p_now), 0) ELSE 0 END,`,
      ],
    ],
  ],
  [
    PREPARE,
    [
      [`cut bigint[] := '{}';`, `cut bigint[] := '{}'; c_low bigint[] := '{}'; h_low bigint[] := '{}';`],
      [
        `IF o_expiry[k] <= p_now THEN due := due || o_ids[k]; END IF;`,
        `IF o_expiry[k] <= p_now THEN due := due || o_ids[k]; h_low := h_low || o_expiry[k]; END IF;`,
      ],
      [
        `DELETE FROM "limit_holds" WHERE "bucket_id" = ANY(due) AND "expires_at_ms" <= p_now
      RETURNING "bucket_id", "amount"),`,
        `DELETE FROM "limit_holds" h USING unnest(due, h_low) AS d(id, low)
      WHERE h."bucket_id" = d.id AND h."expires_at_ms" >= d.low AND h."expires_at_ms" <= p_now
      RETURNING h."bucket_id", h."amount"),`,
      ],
      [
        `aged := aged || o_ids[k]; cut := cut || (p_now - o_wms[k]);`,
        `aged := aged || o_ids[k]; cut := cut || (p_now - o_wms[k]); c_low := c_low || o_oldest[k];`,
      ],
      [
        `DELETE FROM "limit_charges" c USING unnest(aged, cut) AS a(id, cut)
      WHERE c."bucket_id" = a.id AND c."at_ms" <= a.cut`,
        `DELETE FROM "limit_charges" c USING unnest(aged, cut, c_low) AS a(id, cut, low)
      WHERE c."bucket_id" = a.id AND c."at_ms" >= a.low AND c."at_ms" <= a.cut`,
      ],
    ],
  ],
  [APPLY, [[`v_oldest[k] := coalesce(v_oldest[k], p_now);`, `v_oldest[k] := least(v_oldest[k], p_now);`]]],
];

/** The three function definitions as this migration leaves them (a later migration edits them further). */
export function boundedDefinitions(): { STATES: string; PREPARE: string; APPLY: string } {
  const [states, prepare, apply] = EDITS.map(([text, edits]) =>
    edits.reduce((body, [from, to]) => replaceOnce(body, from, to), text),
  );
  return { STATES: states as string, PREPARE: prepare as string, APPLY: apply as string };
}

export function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error(`edit does not match exactly once: ${from}`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

export const orReplace = (definition: string): string =>
  replaceOnce(definition, 'CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION');

export class LimitRetirementBounds1765497600000 implements MigrationInterface {
  readonly name = 'LimitRetirementBounds1765497600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [text, edits] of EDITS) {
      const edited = edits.reduce((body, [from, to]) => replaceOnce(body, from, to), text);
      await queryRunner.query(orReplace(edited));
    }
    await queryRunner.query(`
      UPDATE "limit_buckets" b SET
        "oldest_ms" = (SELECT min(c."at_ms") FROM "limit_charges" c WHERE c."bucket_id" = b."bucket_id"),
        "hold_expiry_ms" = (SELECT min(h."expires_at_ms") FROM "limit_holds" h WHERE h."bucket_id" = b."bucket_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [text] of EDITS) await queryRunner.query(orReplace(text));
  }
}
