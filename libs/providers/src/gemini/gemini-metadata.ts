/** Assistant-message metadata keys this provider writes; part of stored conversations, never rename. */
export const GEMINI_METADATA = {
  /** The Interactions API version that answered (`v1` or `v1beta`); never a URL or credential. */
  apiVersion: 'gemini.apiVersion',
  /** The interaction to continue from; absent when provider continuation is off. */
  interactionId: 'gemini.interactionId',
  /** Digest of the system instruction and tool set the interaction was created with. */
  contextDigest: 'gemini.contextDigest',
  /** The thought signatures of the turn, joined with U+001E, replayed as `thought` steps. */
  thoughtSignatures: 'gemini.thoughtSignatures',
  status: 'gemini.status',
} as const;

/** Separates thought signatures inside one metadata value (they are base64, so never contain it). */
export const SIGNATURE_SEPARATOR = '\u001e';
