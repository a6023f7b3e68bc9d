import { type JsonSchema } from '@helios/core';
import { type AdapterRoute } from './adapter-listener/adapter-routes.js';

/**
 * Request bodies of the adapter API as JSON Schemas, compiled once (Ajv) and checked before the engine
 * sees a body: the hot path pays microseconds, not a class-validator pass. Every limit is the reference's
 * (its zod request schemas), so what it refuses we refuse, with the same paths; ours on top, where a
 * string becomes an index entry, are the engine's byte ceilings (config/identifier-limits.ts). Lengths
 * count characters (code points, as JSON Schema does; the reference counts UTF-16 units, so an astral
 * character counts 2 there). Unknown top-level keys are ignored so adapters written for the reference
 * keep working; a tool definition keeps its extra fields because the drift guard fingerprints it whole.
 */
const text = { type: 'string', minLength: 1, maxLength: 1024 } as const;
const metadata = { type: ['object', 'null'] } as const;
/** The adapter's name: omitted → `sideband`. */
const origin = { type: 'string', pattern: '^[a-z0-9_-]{1,64}$' } as const;
const agentId = { type: ['string', 'null'], maxLength: 128 } as const;
const callerSessionId = { type: ['string', 'null'], maxLength: 256 } as const;
/** SDK routes name a session explicitly: whitespace-only is no session. */
const sessionId = { ...text, pattern: '\\S' } as const;

const evaluate: JsonSchema = {
  type: 'object',
  required: ['tool'],
  properties: {
    origin,
    adapter_version: { type: 'string', maxLength: 64 },
    agent_id: agentId,
    session_id: callerSessionId,
    tool: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 256 },
        description: { type: 'string' },
        title: { type: 'string' },
        annotations: { type: 'object' },
      },
    },
    arguments: { type: 'object' },
    metadata,
  },
};

/**
 * Nothing optional here refuses a call that ran: a `duration_ms` that is no duration is recorded as
 * null with a note, never a 400 that would lose the call's record.
 */
const audit: JsonSchema = {
  type: 'object',
  required: ['evaluation_id', 'status'],
  properties: {
    evaluation_id: text,
    status: { enum: ['success', 'error', 'not_executed'] },
    error: { type: 'string' },
    duration_ms: { type: 'number' },
    actual_amount: { type: 'number' },
    evidence: {
      type: 'array',
      items: {
        type: 'object',
        required: ['evidence_key', 'evidence_data'],
        // No ceiling on the key: one no policy allows is dropped softly, never the call's record.
        properties: {
          evidence_key: { type: 'string', minLength: 1 },
          ttl_seconds: { type: 'integer', minimum: 1 },
        },
      },
    },
  },
};

const installScan: JsonSchema = {
  type: 'object',
  required: ['package'],
  properties: {
    origin,
    agent_id: agentId,
    session_id: callerSessionId,
    package: {
      type: 'object',
      required: ['name'],
      properties: {
        name: text,
        version: { type: 'string' },
        source: { type: 'string', maxLength: 64 },
        spec: { type: 'string' },
        url: { type: 'string' },
      },
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

/**
 * GET /session/:session_id/state has no body: its path parameters are what is checked. Any id reads,
 * as the reference's: one nothing can be written under (whitespace only) reads as an empty session.
 */
const sessionStateParams: JsonSchema = {
  type: 'object',
  required: ['session_id'],
  properties: { session_id: text },
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
