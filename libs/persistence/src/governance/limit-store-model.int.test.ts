/**
 * The PostgreSQL limit store against the LimitStore reference model (`@helios/governance/testing`):
 * random interleavings of reserve / commit / release / peek / expiry compared answer by answer, and the
 * admission properties under concurrency. A database of its own (this file's): the sender-key capacity
 * both exercise counts every live sender bucket in the store, so no other suite may share it.
 */
import { describeLimitStoreConcurrency, describeLimitStoreModel } from '@helios/governance/testing';
import { describe } from 'vitest';
import { databaseTargets, sharedDatabase } from '../../test/support/pg-databases.js';
import { PgLimitStore } from './pg-limit-store.js';

describe.each(databaseTargets)(
  'PgLimitStore and the limit model on the %s database',
  (target, makeDatabase) => {
    const db = sharedDatabase(makeDatabase);
    const store = () => Promise.resolve({ store: new PgLimitStore(db.dataSource) });

    describeLimitStoreModel(`PgLimitStore (${target})`, store, {
      numRuns: 40,
    });

    describeLimitStoreConcurrency(`PgLimitStore (${target})`, store, { numRuns: 15 });
  },
);
