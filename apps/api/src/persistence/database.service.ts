import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { createPersistence, type HeliosPersistence } from '@helios/persistence';
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
 * shutdown hooks that stop an embedded server it started. The stores (`persistence`) are made on the
 * migrated database and closed before it, so the trace store's queue is written while it is open.
 */
@Injectable()
export class DatabaseService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Database');
  private opened: Database | undefined;
  private stores: HeliosPersistence | undefined;

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
    const traceLogger = new Logger('TraceStore');
    this.stores = createPersistence(database.dataSource, {
      logger: { warn: (m) => traceLogger.warn(m), error: (m) => traceLogger.error(m) },
    });
  }

  async onApplicationShutdown(): Promise<void> {
    const database = this.opened;
    const stores = this.stores;
    this.opened = undefined;
    this.stores = undefined;
    try {
      await stores?.close();
    } finally {
      await database?.close();
    }
  }

  /** The session, trace, annotation and prompt stores on the open database. */
  get persistence(): HeliosPersistence {
    if (this.stores === undefined) throw new Error('the database is not open (module not initialised)');
    return this.stores;
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
