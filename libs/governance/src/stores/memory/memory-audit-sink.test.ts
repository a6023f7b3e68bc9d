import { describeAuditSinkContract } from '../../testing/contracts/audit-sink-contract.js';
import { MemoryAuditSink } from './memory-audit-sink.js';

describeAuditSinkContract('MemoryAuditSink', () => {
  const sink = new MemoryAuditSink();
  return Promise.resolve({ store: sink, read: (id: string) => Promise.resolve(sink.find(id)) });
});
