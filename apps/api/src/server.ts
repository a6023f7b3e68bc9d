import 'reflect-metadata';
import { ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { type DestinationStream } from 'pino';
import { AppModule, type RuntimeOptions } from './app.module.js';
import { type HeliosConfig } from './config/config.schema.js';
import { requestId } from './logging/logger-options.js';
import { capConnections, timeoutOptions } from './common/connection-limits.js';
import { mainApiRefusals } from './common/main-api-refusals.js';
import { ListenError } from './common/listen-error.js';
import { httpUrl } from './common/http-url.js';
import { type GovernanceModuleOptions } from './governance/governance.module.js';
import { GovernanceHost } from './governance/governance-host.service.js';
import { prepareGovernance } from './governance/governance-policy.js';
import { type Database } from './persistence/database.js';
import { DatabaseService } from './persistence/database.service.js';
import { setUpSwagger } from './swagger/swagger.js';
import { VERSION } from './version.js';

export interface RunningServer {
  readonly app: NestFastifyApplication;
  readonly config: HeliosConfig;
  /** The open database (for tests and tools that inspect what the API wrote). */
  readonly database: Database;
  /** The governance engine and its adapter listener; undefined without a policy. */
  readonly governance: GovernanceHost | undefined;
  /** http://host:port actually bound (port 0 resolves to the kernel's choice). */
  readonly url: string;
  /** Graceful stop through Nest's lifecycle hooks: readiness 503, drain within the grace period, close. */
  close(): Promise<void>;
}

/** In-process seams for tests; the process entry point (main.ts) passes none. */
export interface ServerOptions {
  readonly governance?: Pick<GovernanceModuleOptions, 'clock'>;
  /** Where every log line goes instead of stdout, so tests can read them. */
  readonly logDestination?: DestinationStream;
  /** The runtime API's seams: a deployer's own Authenticator, scripted models for `scripted/<name>`. */
  readonly runtime?: RuntimeOptions;
}

/**
 * The Nest application over Fastify with its global pipes, request ids and connection limits; not
 * started. The governance policy is compiled first: an invalid one (GovernancePolicyError, every issue
 * by path) stops the start before any module exists.
 */
export async function createApp(
  config: HeliosConfig,
  env: NodeJS.ProcessEnv,
  options: ServerOptions = {},
): Promise<NestFastifyApplication> {
  const governance = { policy: prepareGovernance(config, env), ...options.governance };
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot({
      config,
      env,
      governance,
      logDestination: options.logDestination,
      runtime: options.runtime,
    }),
    new FastifyAdapter({
      bodyLimit: config.server.bodyLimitBytes,
      return503OnClosing: true,
      requestIdHeader: false,
      genReqId: requestId,
      ...timeoutOptions(config.server),
      ...mainApiRefusals,
    }),
    { bufferLogs: true, abortOnError: false },
  );
  app.useLogger(app.get(Logger));
  // Every DTO is validated at the boundary: unknown properties are rejected, not silently dropped.
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', async (request, reply) => {
      void reply.header('x-request-id', request.id);
    });
  setUpSwagger(app);
  return app;
}

/**
 * Builds the app (the policy is checked here, before anything starts), initialises its modules (the
 * database opens and migrates, governance starts) and serves the API. A failure at any step tears down
 * what the earlier steps started.
 */
export async function startServer(
  config: HeliosConfig,
  env: NodeJS.ProcessEnv = process.env,
  options: ServerOptions = {},
): Promise<RunningServer> {
  const app = await createApp(config, env, options);
  try {
    await app.init();
    capConnections(app.getHttpServer(), config.server);
    try {
      await app.listen(config.server.port, config.server.host);
    } catch (error) {
      throw new ListenError(config.server.host, config.server.port, error);
    }
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  const database = app.get(DatabaseService).database;
  const governance = app.get(GovernanceHost);
  const url = boundUrl(app, config);
  app
    .get(Logger)
    .log(`Helios API ${VERSION} listening on ${url} (database: ${database.kind} ${database.location})`);
  return {
    app,
    config,
    database,
    governance: governance.service === undefined ? undefined : governance,
    url,
    close: () => app.close(),
  };
}

function boundUrl(app: NestFastifyApplication, config: HeliosConfig): string {
  const address = app.getHttpServer().address();
  return httpUrl(
    config.server.host,
    typeof address === 'object' && address ? address.port : config.server.port,
  );
}
