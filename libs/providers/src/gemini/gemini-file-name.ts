/** Gemini Files API resource names, checked before any request is built from one. */
import { InvalidArgumentError } from '@helios/core';

/** `files/` and an id of lowercase letters, digits and dashes, as the API issues them. */
const FILE_NAME = /^files\/[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

export function isGeminiFileName(name: string): boolean {
  return FILE_NAME.test(name);
}

/** `name` when it is a `files/{id}` resource name; anything else throws (without echoing it whole). */
export function requireGeminiFileName(name: string): string {
  if (typeof name === 'string' && FILE_NAME.test(name)) return name;
  throw new InvalidArgumentError(
    "gemini: a file resource name must be 'files/{id}' (lowercase letters, digits and dashes)",
  );
}
