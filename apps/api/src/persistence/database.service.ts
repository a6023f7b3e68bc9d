import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { type DataSource } from 'typeorm';
import { type HeliosConfig } from '../config/config.schema.js';
import { HELIOS_CONFIG } from '../config/config.tokens.js';
import { VERSION } from '../version.js';
import { type Database, migrateUp, openDatabase } from './database.js';
import { recordStart } from './instance-metadata.js';

/**
 * The application's database: opened (the embedded server started when no URL is set), migrated and
 * this start recorded in `onModuleInit`, which Nest runs for this module before any module that
 * imports it; closed in `onApplicationShutdown`, after the HTTP server and every module above it.
 * Opening in a hook, not a provider factory, means a start that fails later still reaches the
 * shutdown hooks that stop an embedded server it started.
 */
@Injectable()
export class DatabaseService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Database');
  private opened: Database | undefined;

  constructor(@Inject(HELIOS_CONFIG) private readonly config: HeliosConfig) {}

  async onModuleInit(): Promise<void> {
    const database = await openDatabase(this.config.database, {
      info: (m) => this.logger.log(m),
      warn: (m) => this.logger.warn(m),
    });
    this.opened = database;
    const applied = await migrateUp(database.dataSource);
    if (applied.length > 0) this.logger.log({ migrations: applied }, 'applied database migrations');
    await recordStart(database.dataSource, VERSION);
  }

  async onApplicationShutdown(): Promise<void> {
    const database = this.opened;
    this.opened = undefined;
    await database?.close();
  }

  /** The open database; only modules initialised after this one (its importers) may ask. */
  get database(): Database {
    if (this.opened === undefined) throw new Error('the database is not open (module not initialised)');
    return this.opened;
  }

  get dataSource(): DataSource {
    return this.database.dataSource;
  }
}
