import { Inject, Injectable, Logger } from '@nestjs/common';
import { ShutdownState } from '../lifecycle/shutdown-state.js';
import { DatabaseService } from '../persistence/database.service.js';
import { checkReadiness, type Readiness } from './readiness.js';

/** A still-failing database whose error changes is logged again at most this often. */
const REPEAT_LOG_MS = 60_000;

/**
 * Readiness for the unauthenticated /readyz and /v1/status: the answer carries a generic reason, the
 * driver's error (which names host and port) goes to the log — when the database starts failing, and
 * again only when the error changes, at most once a minute, so frequent probes do not flood it.
 */
@Injectable()
export class ReadinessService {
  private readonly logger = new Logger('Readiness');
  private failing: { detail: string; loggedAt: number } | undefined;

  constructor(
    @Inject(ShutdownState) private readonly shutdown: ShutdownState,
    @Inject(DatabaseService) private readonly database: DatabaseService,
  ) {}

  async check(): Promise<Readiness> {
    const check = await checkReadiness(this.shutdown.shuttingDown, this.database.database);
    if (check.ready) {
      if (this.failing) this.logger.log('database check passes again');
      this.failing = undefined;
      return check;
    }
    if (check.detail !== undefined) this.noteFailure(check.detail);
    return { ready: false, reason: check.reason };
  }

  private noteFailure(detail: string): void {
    const now = Date.now();
    const changed = this.failing === undefined || this.failing.detail !== detail;
    if (!changed || (this.failing && now - this.failing.loggedAt < REPEAT_LOG_MS)) return;
    this.logger.warn(`database check failed: ${detail}`);
    this.failing = { detail, loggedAt: now };
  }
}
