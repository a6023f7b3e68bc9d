/**
 * The governance store contracts (`@helios/governance/testing`) against the PostgreSQL stores: the same
 * cases the in-memory stores pass, on each database target. One database per target serves every case;
 * the contracts keep their keys apart, and the pending store is drained before each case.
 */
import {
  describeApprovalTicketStoreContract,
  describeAuditSinkContract,
  describeLimitStoreContract,
  describePendingEvaluationStoreContract,
} from '@helios/governance/testing';
import { describe } from 'vitest';
import { databaseTargets, sharedDatabase } from '../../test/support/pg-databases.js';
import { findAuditRecord } from './audit-record-row.js';
import { PgApprovalTicketStore } from './pg-approval-ticket-store.js';
import { PgAuditSink } from './pg-audit-sink.js';
import { PgLimitStore } from './pg-limit-store.js';
import { PgPendingEvaluationStore } from './pg-pending-evaluation-store.js';

const quiet = { warn: () => undefined, error: () => undefined };

describe.each(databaseTargets)('governance store contracts on the %s database', (target, makeDatabase) => {
  const db = sharedDatabase(makeDatabase);

  describeLimitStoreContract(`PgLimitStore (${target})`, () =>
    Promise.resolve({ store: new PgLimitStore(db.dataSource) }),
  );

  let pending: PgPendingEvaluationStore | undefined;
  describePendingEvaluationStoreContract(`PgPendingEvaluationStore (${target})`, async () => {
    pending ??= new PgPendingEvaluationStore(db.dataSource);
    // Each case starts from an empty backlog: finalize is the store's only way out, so drain by it.
    for (const entry of await pending.due(Number.MAX_SAFE_INTEGER, 10_000)) {
      await pending.finalize({
        evaluationId: entry.evaluationId,
        auditRecordId: entry.auditRecordId,
        finalizedBy: 'expired',
        payloadHash: null,
        expiresAtMs: 0,
      });
    }
    await pending.pruneTombstones(Number.MAX_SAFE_INTEGER);
    return { store: pending };
  });

  describeApprovalTicketStoreContract(`PgApprovalTicketStore (${target})`, () =>
    Promise.resolve({ store: new PgApprovalTicketStore(db.dataSource) }),
  );

  describeAuditSinkContract(`PgAuditSink (${target})`, () => {
    const sink = new PgAuditSink(db.dataSource, { logger: quiet, flushIntervalMs: 60_000 });
    return Promise.resolve({
      store: sink,
      read: (id: string) => findAuditRecord(db.dataSource, id),
      settle: () => sink.flush(),
      cleanup: () => sink.close(),
    });
  });
});
