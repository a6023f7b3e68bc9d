import { type AppContext } from '../app-context.js';
import { withTimeout } from '../common/with-timeout.js';
import { pendingMigrationCount } from '../persistence/database.js';

export type Readiness = { ready: true } | { ready: false; reason: string };

const CHECK_TIMEOUT_MS = 2_000;

/** Ready = not shutting down, the database answers, and every migration of this build is applied. */
export async function checkReadiness(ctx: AppContext): Promise<Readiness> {
  if (ctx.lifecycle.shuttingDown) return { ready: false, reason: 'shutting down' };
  const known = ctx.database.unavailableReason();
  if (known) return { ready: false, reason: `database unreachable: ${known}` };
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
      reason: `database unreachable: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
