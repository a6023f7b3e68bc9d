/** Keeps audit records in memory (tests, embedding without persistence). */
import { type AuditRecord } from '../audit-record.js';
import { type AuditDelivery, type AuditSink } from '../audit-sink.js';

export class MemoryAuditSink implements AuditSink {
  readonly records: { readonly record: AuditRecord; readonly delivery: AuditDelivery }[] = [];

  append(record: AuditRecord, delivery: AuditDelivery): Promise<void> {
    this.records.push({ record, delivery });
    return Promise.resolve();
  }

  /** The record with this id (tests). */
  find(id: string): AuditRecord | undefined {
    return this.records.find((entry) => entry.record.id === id)?.record;
  }
}
