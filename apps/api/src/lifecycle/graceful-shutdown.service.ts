import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleDestroy,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { type Server } from 'node:http';
import { type HeliosConfig } from '../config/config.schema.js';
import { HELIOS_CONFIG } from '../config/config.tokens.js';
import { ShutdownState } from './shutdown-state.js';

/** How often idle keep-alive connections are closed while the server drains. */
const IDLE_SWEEP_MS = 100;

/**
 * The main listener's graceful stop. Nest's shutdown runs every `onModuleDestroy`, then every
 * `beforeApplicationShutdown`, then closes the HTTP server, then every `onApplicationShutdown` (each
 * phase root module first, the deepest module last). So readiness turns 503 in the first phase, before
 * any feature module tears down; the grace period starts in the second, the server drains in the third,
 * and whatever still runs when `server.shutdownGraceMs` is over has its connection closed. The
 * database, the deepest module, closes last.
 */
@Injectable()
export class GracefulShutdown implements OnModuleDestroy, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('Shutdown');
  private sweep: NodeJS.Timeout | undefined;
  private deadline: NodeJS.Timeout | undefined;

  constructor(
    @Inject(HELIOS_CONFIG) private readonly config: HeliosConfig,
    @Inject(ShutdownState) private readonly state: ShutdownState,
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
  ) {}

  onModuleDestroy(): void {
    this.state.begin();
  }

  beforeApplicationShutdown(): void {
    const graceMs = this.config.server.shutdownGraceMs;
    this.logger.log(`shutting down: draining in-flight requests (grace ${graceMs} ms)`);
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (server === undefined) return;
    // A keep-alive connection that finishes its request while we drain would otherwise sit idle until
    // its keep-alive timeout; closing idle connections as they appear lets shutdown end with the last
    // response.
    this.sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    this.deadline = setTimeout(() => {
      this.logger.warn(`in-flight requests still running after ${graceMs} ms; closing their connections`);
      server.closeAllConnections();
    }, graceMs);
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweep);
    clearTimeout(this.deadline);
  }
}
