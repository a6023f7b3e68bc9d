import { type JsonSchema } from '@helios/core';
import { type AdapterRoute } from './adapter-listener/adapter-routes.js';

/**
 * Request bodies of the adapter API as JSON Schemas, compiled once (Ajv) and checked before the engine
 * sees a body: the hot path pays microseconds, not a class-validator pass. Unknown top-level keys are
 * ignored so adapters written for the reference keep working; a tool definition keeps its extra fields
 * because the drift guard fingerprints the whole object.
 */
const text = { type: 'string', minLength: 1, maxLength: 1024 } as const;
const optionalId = { type: ['string', 'null'], maxLength: 256 } as const;
const metadata = { type: ['object', 'null'] } as const;
/** SDK routes name a session explicitly: whitespace-only is no session. */
const sessionId = { ...text, pattern: '\\S' } as const;

const evaluate: JsonSchema = {
  type: 'object',
  required: ['tool'],
  properties: {
    origin: { ...text, maxLength: 128 },
    adapter_version: { type: 'string', maxLength: 64 },
    agent_id: optionalId,
    session_id: optionalId,
    tool: {
      type: 'object',
      required: ['name'],
      properties: {
        name: text,
        description: { type: 'string' },
        title: { type: 'string' },
        annotations: { type: 'object' },
      },
    },
    arguments: { type: 'object' },
    metadata,
  },
};

const audit: JsonSchema = {
  type: 'object',
  required: ['evaluation_id', 'status'],
  properties: {
    evaluation_id: text,
    status: { enum: ['success', 'error', 'not_executed'] },
    error: { type: 'string' },
    duration_ms: { type: 'number', minimum: 0 },
    actual_amount: { type: 'number' },
    evidence: {
      type: 'array',
      items: {
        type: 'object',
        required: ['evidence_key', 'evidence_data'],
        properties: { evidence_key: text, ttl_seconds: { type: 'integer', minimum: 1 } },
      },
    },
  },
};

const installScan: JsonSchema = {
  type: 'object',
  required: ['package'],
  properties: {
    origin: { ...text, maxLength: 128 },
    agent_id: optionalId,
    session_id: optionalId,
    package: {
      type: 'object',
      required: ['name'],
      properties: { name: text, version: { type: 'string' }, source: { type: 'string' } },
    },
    metadata,
  },
};

const resolveApproval: JsonSchema = {
  type: 'object',
  required: ['resolution'],
  properties: {
    resolution: { enum: ['approved', 'denied', 'timeout', 'cancelled'] },
    resolved_by: { type: 'string' },
    reason: { type: 'string' },
    scope: { enum: ['once', 'always'] },
  },
};

const evidence: JsonSchema = {
  type: 'object',
  required: ['session_id', 'tool_name', 'evidence_key', 'evidence_data'],
  properties: {
    session_id: sessionId,
    tool_name: text,
    evidence_key: text,
    ttl_seconds: { type: 'integer', minimum: 1 },
  },
};

const context: JsonSchema = {
  type: 'object',
  required: ['session_id', 'key', 'value'],
  properties: { session_id: sessionId, key: { ...text, maxLength: 256 } },
};

/** GET /session/:session_id/state has no body: its path parameters are what is checked. */
const sessionStateParams: JsonSchema = {
  type: 'object',
  required: ['session_id'],
  properties: { session_id: sessionId },
};

/** What each route validates: the JSON body, or for GET routes the path parameters. */
export const REQUEST_SCHEMAS: Readonly<Record<AdapterRoute, JsonSchema>> = {
  evaluate,
  audit,
  'install-scan': installScan,
  'approval-resolve': resolveApproval,
  evidence,
  context,
  'session-state': sessionStateParams,
};
