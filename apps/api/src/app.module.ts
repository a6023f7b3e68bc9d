import { type DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { type DestinationStream } from 'pino';
import { DataSource } from 'typeorm';
import { APP_CONTEXT, type AppContext } from './app-context.js';
import { HealthController } from './health/health.controller.js';
import { ReadinessService } from './health/readiness.service.js';
import { loggerOptions } from './logging/logger-options.js';
import { StatusController } from './status/status.controller.js';

/** Root module; feature modules (sessions, providers, governance, sandbox, admin) join its imports. */
@Module({})
export class AppModule {
  /** `logDestination` (tests) replaces stdout for the request and application logs. */
  static forRoot(ctx: AppContext, logDestination?: DestinationStream): DynamicModule {
    return {
      module: AppModule,
      imports: [LoggerModule.forRoot(loggerOptions(ctx.config.log.level, logDestination))],
      controllers: [HealthController, StatusController],
      providers: [
        { provide: APP_CONTEXT, useValue: ctx },
        { provide: DataSource, useValue: ctx.database.dataSource },
        ReadinessService,
      ],
      exports: [APP_CONTEXT, DataSource],
    };
  }
}
