/**
 * The assistant-message metadata keys this provider writes and reads back on replay. Their spelling is
 * part of stored conversations: never rename one.
 */
export const METADATA = {
  /** The turn's thinking text, all blocks joined. */
  thinking: 'anthropic.thinking',
  /** The signature, when the turn had exactly one signed thinking block. */
  thinkingSignature: 'anthropic.thinkingSignature',
  /** JSON `[{text, signature}]`, one per signed thinking block, in order. */
  thinkingBlocks: 'anthropic.thinkingBlocks',
  stopReason: 'anthropic.stopReason',
  /**
   * JSON array of the turn's content blocks as received, when signed blocks alone cannot rebuild it
   * (redacted thinking, server-tool blocks, a paused and continued turn). Replayed verbatim.
   */
  rawContent: 'anthropic.rawContent',
  /**
   * sha256 (hex) of the system prompt and tool set the turn was produced under, written when the turn
   * has thinking. Models that bind thinking to its prompt get this turn's thinking back only while the
   * request's fingerprint is the same.
   */
  promptFingerprint: 'anthropic.promptFingerprint',
} as const;
