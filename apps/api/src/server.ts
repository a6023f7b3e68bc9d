import 'reflect-metadata';
import { ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import pino, { type DestinationStream } from 'pino';
import { type AppContext } from './app-context.js';
import { AppModule } from './app.module.js';
import { type HeliosConfig } from './config/config.schema.js';
import { requestId } from './logging/logger-options.js';
import { serializeError } from './logging/error-serializer.js';
import { capConnections, timeoutOptions } from './common/connection-limits.js';
import { mainApiRefusals } from './common/main-api-refusals.js';
import { migrateUp, openDatabase } from './persistence/database.js';
import { recordStart } from './persistence/instance-metadata.js';
import { ListenError } from './common/listen-error.js';
import {
  prepareGovernance,
  startGovernance,
  type GovernanceRuntime,
  type GovernanceRuntimeOptions,
} from './governance/governance-runtime.js';
import { VERSION } from './version.js';

export interface RunningServer {
  readonly app: NestFastifyApplication;
  readonly context: AppContext;
  /** http://host:port actually bound (port 0 resolves to the kernel's choice). */
  readonly url: string;
  /** Graceful stop: readiness 503, stop accepting, drain within the grace period, close the database. */
  close(): Promise<void>;
}

/** In-process seams for tests; the process entry point (main.ts) passes none. */
export interface ServerOptions {
  readonly governance?: GovernanceRuntimeOptions;
  /** Where every log line goes instead of stdout, so tests can read them. */
  readonly logDestination?: DestinationStream;
}

/** Opens the database, applies migrations, records the start and serves the API. */
export async function startServer(
  config: HeliosConfig,
  env: NodeJS.ProcessEnv = process.env,
  options: ServerOptions = {},
): Promise<RunningServer> {
  const bootLog = pino(
    { level: config.log.level, base: { service: 'helios-api' }, serializers: { err: serializeError } },
    options.logDestination ?? pino.destination(1),
  );
  // The policy is checked before anything starts: an invalid one never serves a single request.
  const governancePolicy = prepareGovernance(config, env);
  const database = await openDatabase(config.database, {
    info: (m) => bootLog.info(m),
    warn: (m) => bootLog.warn(m),
  });
  let app: NestFastifyApplication | undefined;
  let governance: GovernanceRuntime | undefined;
  try {
    const applied = await migrateUp(database.dataSource);
    if (applied.length > 0) bootLog.info({ migrations: applied }, 'applied database migrations');
    await recordStart(database.dataSource, VERSION);

    if (governancePolicy) {
      governance = await startGovernance(
        config,
        governancePolicy,
        env,
        {
          info: (m) => bootLog.info(m),
          warn: (m) => bootLog.warn(m),
          error: (m, e) => bootLog.error({ err: e }, m),
        },
        database.dataSource,
        options.governance,
      );
    }
    const context: AppContext = {
      config,
      database,
      governance,
      version: VERSION,
      startedAt: new Date(),
      lifecycle: { shuttingDown: false },
    };
    app = await NestFactory.create<NestFastifyApplication>(
      AppModule.forRoot(context, options.logDestination),
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
    capConnections(app.getHttpServer(), config.server);
    try {
      await app.listen(config.server.port, config.server.host);
    } catch (error) {
      throw new ListenError(config.server.host, config.server.port, error);
    }
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : config.server.port;
    const url = `http://${config.server.host.includes(':') ? `[${config.server.host}]` : config.server.host}:${port}`;
    app
      .get(Logger)
      .log(`Helios API ${VERSION} listening on ${url} (database: ${database.kind} ${database.location})`);
    return { app, context, url, close: once(() => closeServer(app as NestFastifyApplication, context)) };
  } catch (error) {
    await governance?.close().catch(() => undefined);
    await app?.close().catch(() => undefined);
    await database.close();
    throw error;
  }
}

function setUpSwagger(app: NestFastifyApplication): void {
  const document = () =>
    SwaggerModule.createDocument(
      app,
      new DocumentBuilder()
        .setTitle('Helios API')
        .setDescription(
          'Runs tool-using agents over HTTP/SSE, serves governance decisions and the admin API.',
        )
        .setVersion(VERSION)
        .build(),
    );
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json', yamlDocumentUrl: 'docs-yaml' });
}

async function closeServer(app: NestFastifyApplication, ctx: AppContext): Promise<void> {
  const logger = app.get(Logger);
  ctx.lifecycle.shuttingDown = true;
  const graceMs = ctx.config.server.shutdownGraceMs;
  logger.log(`shutting down: draining in-flight requests (grace ${graceMs} ms)`);
  // No new governance decisions once shutdown starts; in-flight ones finish inside the listener's close.
  await ctx.governance?.close();
  const httpServer = app.getHttpServer();
  const closing = app.close();
  // A keep-alive connection that finishes its request while we drain would otherwise sit idle until its
  // keep-alive timeout; closing idle connections as they appear lets shutdown end with the last response.
  const sweep = setInterval(() => httpServer.closeIdleConnections(), 100);
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), graceMs);
  });
  if ((await Promise.race([closing.then(() => 'closed' as const), graceOver])) === 'timeout') {
    logger.warn(`in-flight requests still running after ${graceMs} ms; closing their connections`);
    httpServer.closeAllConnections();
    await closing;
  }
  clearTimeout(timer);
  clearInterval(sweep);
  await ctx.database.close();
  logger.log('shutdown complete');
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= fn());
}
