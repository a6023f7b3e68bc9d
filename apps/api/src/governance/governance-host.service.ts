import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleInit,
} from '@nestjs/common';
import { type CompileResult, type GovernanceService } from '@helios/governance';
import { type HeliosConfig } from '../config/config.schema.js';
import { HELIOS_CONFIG, PROCESS_ENV } from '../config/config.tokens.js';
import { ListenError } from '../common/listen-error.js';
import { DatabaseService } from '../persistence/database.service.js';
import { adapterHandler } from './adapter-handler.js';
import { startAdapterListener, type AdapterListener } from './adapter-listener/adapter-listener.js';
import { resolveTokens } from './adapter-listener/adapter-tokens.js';
import { buildGovernanceEngine, type GovernanceEngine, type GovernanceLogger } from './governance-engine.js';
import { startGovernanceSweeps } from './governance-sweeps.js';
import { GOVERNANCE_CLOCK, GOVERNANCE_POLICY, type GovernanceClock } from './governance.tokens.js';

const LOCAL_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * The governance engine's lifetime inside the app: built once the database is open (`onModuleInit`,
 * after PersistenceModule's), serving the adapter API from `onApplicationBootstrap` when the policy
 * enables it, and stopped before the main listener closes: no new decisions, sweeps stopped, the audit
 * trail drained while the database is still open. Without a policy it does nothing.
 */
@Injectable()
export class GovernanceHost implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Governance');
  private readonly log: GovernanceLogger = {
    info: (m) => this.logger.log(m),
    warn: (m) => this.logger.warn(m),
    error: (m, e) => this.logger.error({ err: e }, m),
  };
  private engine: GovernanceEngine | undefined;
  private adapterListener: AdapterListener | undefined;
  private stopSweeps: (() => void) | undefined;

  constructor(
    @Inject(HELIOS_CONFIG) private readonly config: HeliosConfig,
    @Inject(PROCESS_ENV) private readonly env: NodeJS.ProcessEnv,
    @Inject(GOVERNANCE_POLICY) private readonly compiled: CompileResult | null,
    @Inject(GOVERNANCE_CLOCK) private readonly clock: GovernanceClock,
    @Inject(DatabaseService) private readonly database: DatabaseService,
  ) {}

  /** The engine, when a policy is configured and the module has initialised. */
  get service(): GovernanceService | undefined {
    return this.engine?.service;
  }

  /** The adapter API's listener, when `sdk.enabled` and bootstrapped. */
  get listener(): AdapterListener | undefined {
    return this.adapterListener;
  }

  async onModuleInit(): Promise<void> {
    if (this.compiled === null) return;
    this.engine = await buildGovernanceEngine({
      config: this.config,
      compiled: this.compiled,
      dataSource: this.database.dataSource,
      log: this.log,
      clock: this.clock ?? undefined,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    const engine = this.engine;
    if (engine === undefined || this.compiled === null) return;
    const sdk = this.compiled.policy.document.sdk;
    if (sdk.enabled) {
      this.adapterListener = await this.listen(engine, sdk.host, sdk.port);
      this.log.info(`governance adapter API listening on ${this.adapterListener.url}`);
    } else {
      this.log.info('governance policy loaded; adapter API off (sdk.enabled is false)');
    }
    this.stopSweeps = startGovernanceSweeps(engine, this.config.governance.sweepIntervalMs, this.log);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopSweeps?.();
    this.stopSweeps = undefined;
    const listener = this.adapterListener;
    this.adapterListener = undefined;
    // In-flight decisions finish inside the listener's close; then the trail drains.
    await listener?.close();
    const engine = this.engine;
    this.engine = undefined;
    engine?.evidence.close();
    // Buckets decided here go back to the shared path, with their holds and unwritten charges.
    await engine?.limitAuthority
      .close()
      .catch((error: unknown) => this.log.error('governance: handing back limit buckets failed', error));
    await engine?.audit.close();
  }

  private async listen(engine: GovernanceEngine, host: string, port: number): Promise<AdapterListener> {
    const tokens = resolveTokens(this.env, (line) => process.stderr.write(`helios: ${line}\n`));
    if (!LOCAL_HOSTS.has(host))
      this.log.warn(`governance adapter API binds ${host}: reachable beyond this machine`);
    try {
      return await startAdapterListener({
        host,
        port,
        tokens,
        handler: adapterHandler(engine.service),
        maxJsonDepth: engine.service.limits.maxJsonDepth,
        connectionLimits: this.config.governance.adapterApi,
        onFault: (error, route) => this.log.error(`governance adapter API fault on ${route}`, error),
      });
    } catch (error) {
      throw new ListenError(host, port, error);
    }
  }
}
