import { type AppContext } from '../app-context.js';
import { withTimeout } from '../common/with-timeout.js';
import { pendingMigrationCount } from '../persistence/database.js';

/** What /readyz and /v1/status show: `reason` never carries a driver's message (host, port, user). */
export type Readiness = { ready: true } | { ready: false; reason: string };

/** A check's outcome with, when the database failed, the driver's own words for the log only. */
export type ReadinessCheck = { ready: true } | { ready: false; reason: string; detail?: string };

/** The public reason when the database does not answer; the detail goes to the log. */
export const DATABASE_UNREACHABLE = 'database unreachable';

const CHECK_TIMEOUT_MS = 2_000;

/** Ready = not shutting down, the database answers, and every migration of this build is applied. */
export async function checkReadiness(ctx: AppContext): Promise<ReadinessCheck> {
  if (ctx.lifecycle.shuttingDown) return { ready: false, reason: 'shutting down' };
  // Our own words (the embedded server is being restarted), not the driver's: safe to show.
  const known = ctx.database.unavailableReason();
  if (known) return { ready: false, reason: `${DATABASE_UNREACHABLE}: ${known}` };
  try {
    const pending = await withTimeout(
      pendingMigrationCount(ctx.database.dataSource),
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
