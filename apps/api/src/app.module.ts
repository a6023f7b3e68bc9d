import { type DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { DataSource } from 'typeorm';
import { APP_CONTEXT, type AppContext } from './app-context.js';
import { HealthController } from './health/health.controller.js';
import { loggerOptions } from './logging/logger-options.js';
import { StatusController } from './status/status.controller.js';

/** Root module; feature modules (sessions, providers, governance, sandbox, admin) join its imports. */
@Module({})
export class AppModule {
  static forRoot(ctx: AppContext): DynamicModule {
    return {
      module: AppModule,
      imports: [LoggerModule.forRoot(loggerOptions(ctx.config.log.level))],
      controllers: [HealthController, StatusController],
      providers: [
        { provide: APP_CONTEXT, useValue: ctx },
        { provide: DataSource, useValue: ctx.database.dataSource },
      ],
      exports: [APP_CONTEXT, DataSource],
    };
  }
}
