import { type GovernanceEngine, type GovernanceLogger } from './governance-engine.js';

const RETENTION_SWEEP_MS = 24 * 60 * 60 * 1000;

/**
 * The engine's background work: idle evidence sessions evicted and unaudited evaluations past their
 * TTL expired every `sweepIntervalMs`, audit retention once a day. Returns the function that stops both.
 */
export function startGovernanceSweeps(
  engine: GovernanceEngine,
  sweepIntervalMs: number,
  log: GovernanceLogger,
): () => void {
  const expiry = setInterval(() => {
    engine.evidence.evictIdle(Date.now());
    engine.service.sweep().then(
      (report) => {
        for (const entry of report.quarantined)
          log.warn(
            `governance evaluation ${entry.evaluationId} expired under a quarantined record: ${entry.reason}`,
          );
        if (report.failed > 0)
          log.error(
            `governance expiry sweep: ${report.failed} evaluation(s) could not be expired; retried next run`,
          );
      },
      (error: unknown) => log.error('governance expiry sweep failed', error),
    );
  }, sweepIntervalMs);
  expiry.unref();
  const retention = setInterval(() => void engine.sweepRetention(), RETENTION_SWEEP_MS);
  retention.unref();
  return () => {
    clearInterval(expiry);
    clearInterval(retention);
  };
}
