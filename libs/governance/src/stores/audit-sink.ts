/**
 * Where audit records go. `immediate` marks enforcement records (blocks, approvals, expiries, installs
 * denied), which a persistent sink flushes at once; `buffered` records may be batched off the request path.
 */
import { type AuditRecord } from './audit-record.js';

export type AuditDelivery = 'immediate' | 'buffered';

export interface AuditSink {
  append(record: AuditRecord, delivery: AuditDelivery): Promise<void>;
}
