import { type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { recoverOrphan } from './orphan-recovery.js';
import { hasExited, launchPostmaster, type PostmasterSpec } from './postmaster.js';
import { killProcessGroup, stopPostmaster } from './process-utils.js';
import { restartDelayMs, STABLE_AFTER_MS } from './restart-backoff.js';

export interface SupervisorLogger {
  info(message: string): void;
  warn(message: string): void;
}

/**
 * Owns a running postmaster: when it exits without being asked to (kill -9, OOM killer), starts it again
 * on the same cluster and port (PostgreSQL's crash recovery replays its WAL, so every committed
 * transaction survives), with a bounded backoff and one log line per attempt, until it runs or `stop()`
 * is called. `stop()` is an expected exit and never triggers a restart.
 */
export class PostmasterSupervisor {
  private stopping = false;
  private readonly cancel = new AbortController();
  private recovery: Promise<void> | undefined;
  private attempt = 0;
  private startedAt = Date.now();
  private restartAttempt: number | undefined;

  constructor(
    private readonly spec: PostmasterSpec,
    private child: ChildProcess,
    private readonly log: SupervisorLogger,
  ) {
    this.watch(child);
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** Why the server cannot answer right now (it crashed and is being restarted), else undefined. */
  get unavailableReason(): string | undefined {
    return this.restartAttempt === undefined
      ? undefined
      : `embedded PostgreSQL is restarting after a crash (attempt ${this.restartAttempt})`;
  }

  /** Fast shutdown of the current server (bounded by `graceMs` plus the escalation), no restart after. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    this.cancel.abort();
    await this.recovery;
    const pid = this.child.pid;
    if (pid !== undefined && !hasExited(this.child)) await stopPostmaster(pid, graceMs);
  }

  private watch(child: ChildProcess): void {
    child.once('exit', (code, signal) => {
      if (this.stopping || child !== this.child) return;
      this.recovery = this.restart(child.pid ?? -1, signal ?? `code ${code ?? '?'}`);
    });
  }

  private async restart(deadPid: number, how: string): Promise<void> {
    // A crash soon after the last restart continues the backoff; a server that ran a while starts over.
    if (Date.now() - this.startedAt >= STABLE_AFTER_MS) this.attempt = 0;
    let lastFailure = '';
    while (!this.stopping) {
      this.attempt += 1;
      this.restartAttempt = this.attempt;
      const delay = restartDelayMs(this.attempt);
      this.log.warn(
        `embedded PostgreSQL (pid ${deadPid}) exited unexpectedly (${how}); restart attempt ${this.attempt} in ${delay} ms${lastFailure}`,
      );
      // Its backends outlive it for a moment and hold the old shared memory; the new server needs it free.
      await killProcessGroup(deadPid, 2_000);
      await sleep(delay, undefined, { signal: this.cancel.signal }).catch(() => undefined);
      if (this.stopping) return;
      try {
        // The dead server's pid file stays behind; if its pid was reused meanwhile, PostgreSQL would refuse.
        await recoverOrphan(this.spec.clusterDir, this.log);
        const child = await launchPostmaster(this.spec, this.cancel.signal);
        this.child = child;
        this.startedAt = Date.now();
        this.restartAttempt = undefined;
        this.watch(child);
        this.log.info(
          `embedded PostgreSQL restarted (pid ${child.pid ?? '?'}) on 127.0.0.1:${this.spec.port} after crash recovery`,
        );
        return;
      } catch (error) {
        lastFailure = ` (attempt ${this.attempt} failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
      }
    }
  }
}
