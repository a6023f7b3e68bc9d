import {
  type Clock,
  type CompileResult,
  DEFAULT_GOVERNANCE_LIMITS,
  GovernanceService,
  MemoryEvidenceStore,
  MemoryToolBaselineStore,
  parseDuration,
} from '@helios/governance';
import {
  LimitAuthority,
  PgApprovalTicketStore,
  PgAuditSink,
  PgLimitStore,
  PgPendingEvaluationStore,
  recoverAuditRecords,
  sweepGovernanceRetention,
} from '@helios/persistence';
import { type DataSource } from 'typeorm';
import { type HeliosConfig } from '../config/config.schema.js';

export interface GovernanceLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

/** The service and the stores whose lifetimes the host manages (the rest are stateless over SQL). */
export interface GovernanceEngine {
  readonly service: GovernanceService;
  readonly evidence: MemoryEvidenceStore;
  readonly audit: PgAuditSink;
  /** Decides the limit buckets this process uses alone in memory; hands them back at close. */
  readonly limitAuthority: LimitAuthority;
  /** Deletes audit records past `audit.retention`; failures are logged, never thrown. */
  sweepRetention(): Promise<void>;
}

export interface BuildEngineOptions {
  readonly config: HeliosConfig;
  readonly compiled: CompileResult;
  readonly dataSource: DataSource;
  readonly log: GovernanceLogger;
  readonly clock: Clock | undefined;
}

/**
 * Recovers what a crashed process left unwritten, applies retention once, then builds the service over
 * its stores: counters, pending evaluations, tickets and the trail live in PostgreSQL (atomic across
 * processes, nothing lost on a crash); tool baselines and evidence are per process, as in the reference.
 */
export async function buildGovernanceEngine(options: BuildEngineOptions): Promise<GovernanceEngine> {
  const { config, compiled, dataSource, log, clock } = options;
  const { policy, warnings } = compiled;
  for (const warning of warnings) log.warn(`governance policy: ${warning}`);

  const recovered = await recoverAuditRecords(dataSource);
  if (recovered > 0) log.warn(`governance: recovered ${recovered} audit record(s) left unwritten by a crash`);
  // Validated by the policy schema; the fallback is the reference's default (90 days).
  const retentionMs = parseDuration(policy.document.audit.retention) ?? 90 * 24 * 60 * 60 * 1000;
  const sweepRetention = () =>
    sweepGovernanceRetention(dataSource, { cutoffMs: Date.now() - retentionMs }).then(
      () => undefined,
      (error: unknown) => log.error('governance retention sweep failed', error),
    );
  await sweepRetention();

  const audit = new PgAuditSink(dataSource, {
    logger: { warn: (m) => log.warn(m), error: (m) => log.error(m) },
  });
  const evidence = new MemoryEvidenceStore({
    idleTtlMs: config.governance.limits.sessionIdleTtlMs ?? DEFAULT_GOVERNANCE_LIMITS.sessionIdleTtlMs,
  });
  const limitAuthority = await LimitAuthority.start(dataSource, {
    log: { warn: (m) => log.warn(m), error: (m, e) => log.error(m, e) },
    ...(clock === undefined ? {} : { clock }),
  });
  try {
    const service = await GovernanceService.create({
      policy,
      ...(clock === undefined ? {} : { clock }),
      stores: {
        limits: new PgLimitStore(dataSource, { authority: limitAuthority }),
        pending: new PgPendingEvaluationStore(dataSource, { authority: limitAuthority }),
        approvals: new PgApprovalTicketStore(dataSource),
        baselines: new MemoryToolBaselineStore(),
        audit,
        evidence,
      },
      limits: Object.fromEntries(
        Object.entries(config.governance.limits).filter(([, value]) => value !== undefined),
      ),
    });
    return { service, evidence, audit, limitAuthority, sweepRetention };
  } catch (error) {
    await limitAuthority.close();
    evidence.close();
    await audit.close();
    throw error;
  }
}
