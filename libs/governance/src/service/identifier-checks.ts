/**
 * The byte ceilings of config/identifier-limits.ts, checked at the service's entry points (after
 * strings were made storable, which can lengthen them) so every door — the adapter listener and
 * in-process callers alike — is held to them before anything is decided or stored.
 */
import { type FieldError } from '@helios/core';
import { IDENTIFIER_MAX_BYTES as MAX } from '../config/identifier-limits.js';
import { exceedsUtf8Bytes } from '../util/utf8.js';
import {
  type AuditRequest,
  type ContextRequest,
  type EvaluateRequest,
  type EvidenceRequest,
  type InstallScanRequest,
} from '../wire/wire-types.js';

type Check = readonly [path: string, value: unknown, maxBytes: number];

export function evaluateIdentifierIssues(request: EvaluateRequest): FieldError[] {
  return issues(
    [
      ['origin', request.origin, MAX.origin],
      ['tool.name', request.tool.name, MAX.toolName],
      ['agent_id', request.agent_id, MAX.agentId],
      ['session_id', request.session_id, MAX.callerSessionId],
    ],
    request.metadata,
  );
}

export function installScanIdentifierIssues(request: InstallScanRequest): FieldError[] {
  return issues(
    [
      ['origin', request.origin, MAX.origin],
      ['package.name', request.package.name, MAX.packageName],
      ['package.source', request.package.source, MAX.packageSource],
      ['agent_id', request.agent_id, MAX.agentId],
      ['session_id', request.session_id, MAX.callerSessionId],
    ],
    request.metadata,
  );
}

/**
 * Evidence keys are not held to a ceiling here: an entry the store cannot take is dropped softly at
 * finalization (no policy allows such a key), so an oversized one never costs the call its record.
 */
export function auditIdentifierIssues(request: AuditRequest): FieldError[] {
  return issues([['evaluation_id', request.evaluation_id, MAX.evaluationId]]);
}

export function evidenceIdentifierIssues(request: EvidenceRequest): FieldError[] {
  return issues([
    ['session_id', request.session_id, MAX.sdkSessionId],
    ['tool_name', request.tool_name, MAX.toolName],
    ['evidence_key', request.evidence_key, MAX.evidenceKey],
  ]);
}

export function contextIdentifierIssues(request: ContextRequest): FieldError[] {
  return issues([
    ['session_id', request.session_id, MAX.sdkSessionId],
    ['key', request.key, MAX.contextKey],
  ]);
}

export function sessionIdIssues(sessionId: string): FieldError[] {
  return issues([['session_id', sessionId, MAX.sdkSessionId]]);
}

export function ticketIdIssues(ticketId: string): FieldError[] {
  return issues([['id', ticketId, MAX.ticketId]]);
}

function issues(checks: readonly Check[], metadata?: Readonly<Record<string, unknown>> | null): FieldError[] {
  const found: FieldError[] = [];
  for (const [path, value, maxBytes] of checks) check(found, path, value, maxBytes);
  if (metadata !== null && metadata !== undefined && typeof metadata === 'object') {
    for (const key of Object.keys(metadata)) {
      if (exceedsUtf8Bytes(key, MAX.metadataKey)) {
        found.push({
          path: 'metadata',
          message: `key ${JSON.stringify(truncated(key))}… ${expected(MAX.metadataKey, key)}`,
        });
      }
    }
    if (Object.hasOwn(metadata, 'sender_id'))
      check(found, 'metadata.sender_id', metadata['sender_id'], MAX.senderId);
  }
  return found;
}

function check(found: FieldError[], path: string, value: unknown, maxBytes: number): void {
  if (typeof value === 'string' && exceedsUtf8Bytes(value, maxBytes))
    found.push({ path, message: expected(maxBytes, value) });
}

function expected(maxBytes: number, value: string): string {
  return `expected at most ${maxBytes} bytes (UTF-8), got ${Buffer.byteLength(value, 'utf8')}`;
}

/** A key too long to quote whole in an error body. */
function truncated(key: string): string {
  return [...key].slice(0, 32).join('');
}
