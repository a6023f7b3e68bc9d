import { type DynamicModule, Global, Module } from '@nestjs/common';
import { type HeliosConfig } from './config.schema.js';
import { HELIOS_CONFIG, PROCESS_ENV } from './config.tokens.js';

/**
 * The validated `helios.yaml` (with its environment overrides) and the environment it was read from.
 * Loaded and checked before Nest starts (load-config.ts), so an invalid file never opens a database;
 * global because every feature module reads its own section.
 */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: HeliosConfig, env: NodeJS.ProcessEnv): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: HELIOS_CONFIG, useValue: config },
        { provide: PROCESS_ENV, useValue: env },
      ],
      exports: [HELIOS_CONFIG, PROCESS_ENV],
    };
  }
}
