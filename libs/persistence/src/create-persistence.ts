/**
 * One entry to the observability and session stores on a migrated DataSource: the schema they live in
 * (validated before any SQL), the redactor the trace store applies, and one `close()` that drains the
 * trace store's queue. The governance stores are built by the governance host, which owns their
 * lifecycles (batchers, sweeps).
 */
import { type Redactor } from '@helios/core';
import { type DataSource } from 'typeorm';
import { PgAnnotationStore } from './observability/pg-annotation-store.js';
import { PgPromptRegistry } from './observability/pg-prompt-registry.js';
import { PgTraceStore, type PgTraceStoreOptions } from './observability/pg-trace-store.js';
import { PersistenceConfig } from './observability/persistence-config.js';
import { type TraceStoreLogger } from './observability/trace-batch-writer.js';
import { type RedactText } from './observability/trace-rows.js';
import { PgSessionStore } from './sessions/pg-session-store.js';

export interface PersistenceOptions {
  /** The schema holding the helios_* tables (default `public`); InvalidArgumentError when malformed. */
  readonly schema?: string;
  /** Applied by the trace store to every text field and attribute value; none stores them verbatim. */
  readonly redactor?: Redactor | RedactText;
  /** Where the trace store reports drops and retries. */
  readonly logger: TraceStoreLogger;
  /** The trace store's queue and batching (capacity, batch size, retries). */
  readonly traces?: Omit<PgTraceStoreOptions, 'logger' | 'config' | 'redactor'>;
}

export interface HeliosPersistence {
  readonly config: PersistenceConfig;
  /** Conversations, verbatim (never redacted: replayed provider-signed turns stay byte-identical). */
  readonly sessions: PgSessionStore;
  readonly traces: PgTraceStore;
  readonly annotations: PgAnnotationStore;
  readonly prompts: PgPromptRegistry;
  /** Writes what the trace store still holds, then stops it. The DataSource stays open (it is the caller's). */
  close(): Promise<void>;
}

export function createPersistence(dataSource: DataSource, options: PersistenceOptions): HeliosPersistence {
  const config = new PersistenceConfig(options.schema === undefined ? {} : { schema: options.schema });
  const traces = new PgTraceStore(dataSource, {
    ...options.traces,
    logger: options.logger,
    config,
    ...(options.redactor === undefined ? {} : { redactor: options.redactor }),
  });
  return Object.freeze({
    config,
    sessions: new PgSessionStore(dataSource, config),
    traces,
    annotations: new PgAnnotationStore(dataSource, config),
    prompts: new PgPromptRegistry(dataSource, config),
    close: () => traces.close(),
  });
}
