import { withTimeout } from '../common/with-timeout.js';
import { type Database, pendingMigrationCount } from '../persistence/database.js';

/** What /readyz and /v1/status show: `reason` never carries a driver's message (host, port, user). */
export type Readiness = { ready: true } | { ready: false; reason: string };

/** A check's outcome with, when the database failed, the driver's own words for the log only. */
export type ReadinessCheck = { ready: true } | { ready: false; reason: string; detail?: string };

/** The public reason when the database does not answer; the detail goes to the log. */
export const DATABASE_UNREACHABLE = 'database unreachable';

const CHECK_TIMEOUT_MS = 2_000;

/** Ready = not shutting down, the database answers, and every migration of this build is applied. */
export async function checkReadiness(shuttingDown: boolean, database: Database): Promise<ReadinessCheck> {
  if (shuttingDown) return { ready: false, reason: 'shutting down' };
  // Our own words (the embedded server is being restarted), not the driver's: safe to show.
  const known = database.unavailableReason();
  if (known) return { ready: false, reason: `${DATABASE_UNREACHABLE}: ${known}` };
  try {
    const pending = await withTimeout(
      pendingMigrationCount(database.dataSource),
      CHECK_TIMEOUT_MS,
      'readiness check',
    );
    if (pending > 0) return { ready: false, reason: `${pending} database migration(s) pending` };
    return { ready: true };
  } catch (error) {
    return {
      ready: false,
      reason: DATABASE_UNREACHABLE,
      detail: error instanceof Error ? error.message : String(error),
    };
  }
}
