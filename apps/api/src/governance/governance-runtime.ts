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
  PgApprovalTicketStore,
  PgAuditSink,
  PgLimitStore,
  PgPendingEvaluationStore,
  recoverAuditRecords,
  sweepGovernanceRetention,
} from '@helios/persistence';
import { type DataSource } from 'typeorm';
import { type HeliosConfig } from '../config/config.schema.js';
import { adapterHandler } from './adapter-handler.js';
import { startAdapterListener, type AdapterListener } from './adapter-listener/adapter-listener.js';
import { checkTokenEnvironment, resolveTokens } from './adapter-listener/adapter-tokens.js';
import { loadGovernancePolicy } from './policy-loader.js';
import { ListenError } from '../common/listen-error.js';

const RETENTION_SWEEP_MS = 24 * 60 * 60 * 1000;

export interface GovernanceLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

/** The running governance: the engine and, when the policy enables it, the adapter listener. */
export interface GovernanceRuntime {
  readonly service: GovernanceService;
  readonly listener: AdapterListener | undefined;
  /** Stops the listener (no new decisions), the expiry sweep, and drains the audit trail. */
  close(): Promise<void>;
}

/** Seams for tests only; production passes none. */
export interface GovernanceRuntimeOptions {
  /** The engine's time (TTLs, windows, deadlines), so tests cross them without waiting. */
  readonly clock?: Clock;
}

/**
 * The configured policy, compiled; undefined when none is set. Throws GovernancePolicyError, or
 * ConfigError for adapter API tokens that are too short or identical (before anything starts).
 */
export function prepareGovernance(config: HeliosConfig, env: NodeJS.ProcessEnv): CompileResult | undefined {
  const path = config.governance.policy;
  if (path === undefined) return undefined;
  const compiled = loadGovernancePolicy(path, env);
  if (compiled.policy.document.sdk.enabled) checkTokenEnvironment(env);
  return compiled;
}

/**
 * Builds the service over its stores and, with `sdk.enabled`, serves the adapter API on
 * `sdk.host:sdk.port`.
 */
export async function startGovernance(
  config: HeliosConfig,
  compiled: CompileResult,
  env: NodeJS.ProcessEnv,
  log: GovernanceLogger,
  dataSource: DataSource,
  options: GovernanceRuntimeOptions = {},
): Promise<GovernanceRuntime> {
  const { policy, warnings } = compiled;
  for (const warning of warnings) log.warn(`governance policy: ${warning}`);

  // Records a crashed process still had buffered are written from their tombstones before we serve.
  const recovered = await recoverAuditRecords(dataSource);
  if (recovered > 0) log.warn(`governance: recovered ${recovered} audit record(s) left unwritten by a crash`);
  // Validated by the policy schema; the fallback is the reference's default (90 days).
  const retentionMs = parseDuration(policy.document.audit.retention) ?? 90 * 24 * 60 * 60 * 1000;
  const sweepRetention = () =>
    sweepGovernanceRetention(dataSource, { cutoffMs: Date.now() - retentionMs }).catch((error: unknown) =>
      log.error('governance retention sweep failed', error),
    );
  await sweepRetention();

  // Counters, pending evaluations, tickets and the trail live in PostgreSQL (atomic across processes,
  // nothing lost on a crash); tool baselines and evidence are per process, as in the reference.
  const audit = new PgAuditSink(dataSource, {
    logger: { warn: (m) => log.warn(m), error: (m) => log.error(m) },
  });
  const evidence = new MemoryEvidenceStore({
    idleTtlMs: config.governance.limits.sessionIdleTtlMs ?? DEFAULT_GOVERNANCE_LIMITS.sessionIdleTtlMs,
  });
  const service = await GovernanceService.create({
    policy,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    stores: {
      limits: new PgLimitStore(dataSource),
      pending: new PgPendingEvaluationStore(dataSource),
      approvals: new PgApprovalTicketStore(dataSource),
      baselines: new MemoryToolBaselineStore(),
      audit,
      evidence,
    },
    limits: Object.fromEntries(
      Object.entries(config.governance.limits).filter(([, value]) => value !== undefined),
    ),
  });

  const sdk = policy.document.sdk;
  let listener: AdapterListener | undefined;
  if (sdk.enabled) {
    const tokens = resolveTokens(env, (line) => process.stderr.write(`helios: ${line}\n`));
    if (!['127.0.0.1', '::1', 'localhost'].includes(sdk.host)) {
      log.warn(`governance adapter API binds ${sdk.host}: reachable beyond this machine`);
    }
    try {
      listener = await startAdapterListener({
        host: sdk.host,
        port: sdk.port,
        tokens,
        handler: adapterHandler(service),
        connectionLimits: config.governance.adapterApi,
        onFault: (error, route) => log.error(`governance adapter API fault on ${route}`, error),
      });
    } catch (error) {
      evidence.close();
      await audit.close();
      throw new ListenError(sdk.host, sdk.port, error);
    }
    log.info(`governance adapter API listening on ${listener.url}`);
  } else {
    log.info('governance policy loaded; adapter API off (sdk.enabled is false)');
  }

  const sweep = setInterval(() => {
    evidence.evictIdle(Date.now());
    service.sweep().then(
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
  }, config.governance.sweepIntervalMs);
  sweep.unref();
  const retention = setInterval(() => void sweepRetention(), RETENTION_SWEEP_MS);
  retention.unref();

  return {
    service,
    listener,
    async close() {
      clearInterval(sweep);
      clearInterval(retention);
      await listener?.close();
      evidence.close();
      await audit.close();
    },
  };
}
