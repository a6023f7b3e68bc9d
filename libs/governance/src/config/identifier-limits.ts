/**
 * Byte ceilings for caller-chosen strings that become index entries or keys: tool and package names,
 * origins, session, agent and sender ids, evidence, context and metadata keys, evaluation and ticket
 * ids. Counted in UTF-8 bytes, not characters: a PostgreSQL btree entry holds at most ~2,700 bytes, and
 * 1,024 astral characters (4,096 bytes) in a tool name made its audit record unstorable. Where the
 * reference gateway has a character limit (checked by the adapter listener), the ceiling is three bytes
 * per UTF-16 unit of it, the most such a string can take, so a request the reference accepts is never
 * refused here; elsewhere it equals the character limit the adapter API had, so ASCII callers see no
 * change. Each leaves room for the bucket-key prefixes the limit store adds. Not configurable: raising
 * one past the index ceiling would let a single request poison storage again.
 */
export const IDENTIFIER_MAX_BYTES = Object.freeze({
  toolName: 1_024,
  packageName: 1_024,
  /** `package.source`: with the name, part of an install scan's audited tool name. */
  packageSource: 256,
  origin: 128,
  /** `agent_id` of /evaluate and /install-scan: the reference's 128 characters. */
  agentId: 384,
  /** `session_id` of /evaluate and /install-scan: the reference's 256 characters. */
  callerSessionId: 768,
  /** `session_id` of the SDK routes (/evidence, /context, session state). */
  sdkSessionId: 1_024,
  /** `metadata.sender_id`: part of sender-keyed limit and budget bucket keys. */
  senderId: 400,
  metadataKey: 256,
  evidenceKey: 1_024,
  contextKey: 256,
  evaluationId: 1_024,
  ticketId: 1_024,
});
