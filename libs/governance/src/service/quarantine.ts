/**
 * The record written when a record cannot be stored as it is (a row an index refuses, say, left by a
 * version before the byte ceilings): the same id, kind and decision, with every indexed string cut to
 * its ceiling and the caller's arguments and metadata left out, plus a `quarantine` block that says
 * why and what was dropped. The expiry sweep finalizes such an entry like any other, so one bad row
 * never holds up the rest, and an audit sink writes it instead of losing the record: the trail still
 * shows the call happened.
 */
import { hash } from 'node:crypto';
import { IDENTIFIER_MAX_BYTES as MAX } from '../config/identifier-limits.js';
import { truncateUtf8 } from '../util/utf8.js';
import { type AuditRecord } from '../stores/audit-record.js';

/** Room for a database's own error text, which may quote the value it refused. */
const MAX_ERROR_BYTES = 512;

export const QUARANTINE_REASON = 'the audit record could not be stored as it was';

export function quarantinedRecord(record: AuditRecord, error: unknown): AuditRecord {
  return {
    ...record,
    toolName: truncateUtf8(record.toolName, MAX.toolName),
    origin: truncateUtf8(record.origin, MAX.origin),
    agentId: record.agentId === null ? null : truncateUtf8(record.agentId, MAX.agentId),
    sessionId: record.sessionId === null ? null : truncateUtf8(record.sessionId, MAX.callerSessionId),
    toolInput: {},
    metadata: null,
    evidenceChain: {
      ...record.evidenceChain,
      quarantine: {
        reason: QUARANTINE_REASON,
        error: describe(error),
        original: {
          tool_name_bytes: Buffer.byteLength(record.toolName, 'utf8'),
          tool_name_sha256: sha256(record.toolName),
          tool_input_sha256: sha256(JSON.stringify(record.toolInput ?? {})),
          metadata_sha256: record.metadata === null ? null : sha256(JSON.stringify(record.metadata)),
        },
        dropped: ['tool_input', 'metadata'],
      },
    },
  };
}

/** Class and message, bounded; never driver internals such as statement parameters. */
function describe(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return truncateUtf8(text, MAX_ERROR_BYTES);
}

function sha256(text: string): string {
  return hash('sha256', text, 'hex');
}
